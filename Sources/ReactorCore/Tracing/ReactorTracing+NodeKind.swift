extension ReactorTracing {
    /// What kind of node a ``ReactorTracer/nodeCreated(_:kind:name:parent:)`` introduces.
    ///
    /// The runtime's own vocabulary: a recorder maps each case to the trace
    /// schema's node kind of the same name (`ReactorTrace` does, in one place).
    public enum NodeKind: Sendable, CaseIterable, BitwiseCopyable {
        /// An autorun.
        case computation
        /// A `Computed` value.
        case computed
        /// A plain `Dependency`.
        case dependency
        /// An `@Reactive` property.
        case reactiveValue
        /// A `ReactiveProperty`.
        case reactiveProperty
        /// A subject (passthrough, behavior, replay or async).
        case subject
        /// A subscription to a signal or subject.
        case subscription
        /// A `Store`.
        case store
        /// A signal.
        case signal
        /// One subscriber's stage of an operator (`map`, `debounce`…): a run per
        /// value it handles, a `changed` per value it sends on.
        case `operator`
        /// A binding's stage: a run per value it writes into its target.
        case binding
    }
}
