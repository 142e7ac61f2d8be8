/// A type with its own short description in traces that record values.
///
/// By default a recorded value is described with `String(reflecting:)`; a type
/// whose reflection is long or noisy (a model with many fields, a type holding
/// buffers) conforms to give the few words that identify its state:
///
/// ```swift
/// extension Todo: TraceValueDescribable {
///     var traceDescription: String { "\(done ? "☑" : "☐") \(title)" }
/// }
/// ```
///
/// The description is still cut to the recorder's `maxLength`. It is asked for
/// only while a recorder with value capture on is installed.
public protocol TraceValueDescribable {
    /// The value's description in traces.
    var traceDescription: String { get }
}
