/// What kind of node an id names in the trace; the raw value is the kind's code in the log.
public enum TraceNodeKind: UInt8, Sendable, CaseIterable, BitwiseCopyable {
    /// An autorun.
    case computation = 1
    /// A `Computed` value.
    case computed = 2
    /// A plain `Dependency`.
    case dependency = 3
    /// An `@Reactive` property.
    case reactiveValue = 4
    /// A `ReactiveProperty`.
    case reactiveProperty = 5
    /// A subject (passthrough, behavior, replay or async).
    case subject = 6
    /// A subscription to a signal or subject.
    case subscription = 7
    /// A `Store`.
    case store = 8
    /// A signal.
    case signal = 9
    /// One subscriber's stage of an operator (`map`, `debounce`…): a run per
    /// value it handles, a `changed` per value it sends on.
    case `operator` = 10
    /// A binding's stage: a run per value it writes into its target.
    case binding = 11
}
