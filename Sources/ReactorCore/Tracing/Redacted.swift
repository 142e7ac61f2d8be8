/// A value that must never reach a trace: an action argument or a stored value
/// such as a password or a token.
///
/// ```swift
/// func login(_ password: Redacted<String>) { action(password) { … } }
/// ```
///
/// Traces write it as `‹redacted›` whatever the recorder's options say, and so do
/// its `description`, `debugDescription` and mirror, so that a struct holding one
/// is described without it. Read the wrapped value with ``value``.
public struct Redacted<Value> {
    @usableFromInline var storage: Value

    /// The secret itself. Read by an autorun or a computed while a tracer is
    /// installed, it makes what that run produces a secret too (see
    /// ``Reactor/computed(_:reveals:redacted:fileID:line:_:)``).
    @inlinable
    public var value: Value {
        get {
            if TraceEmit.isOn { ReactorCore.graph.noteRedactedRead() }
            return storage
        }
        set { storage = newValue }
    }

    /// Wraps `value` so that traces and descriptions never show it.
    public init(_ value: Value) {
        storage = value
    }
}

extension Redacted: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable, RedactedTraceValue {
    /// `‹redacted›`.
    public var description: String { TraceValueText.redacted }
    /// `‹redacted›`.
    public var debugDescription: String { TraceValueText.redacted }
    /// A mirror with no children: reflection shows nothing of the value.
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}

extension Redacted: Sendable where Value: Sendable {}
extension Redacted: Equatable where Value: Equatable {}
extension Redacted: Hashable where Value: Hashable {}

/// Marks ``Redacted`` whatever its wrapped type, for the value describer.
protocol RedactedTraceValue {}
