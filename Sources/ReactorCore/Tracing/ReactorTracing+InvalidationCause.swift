extension ReactorTracing {
    /// Why a computation was invalidated, as ``ReactorTracer/invalidated(computation:cause:source:)`` reports it.
    ///
    /// The runtime's own vocabulary: a recorder maps each case to the trace
    /// schema's cause of the same name (`ReactorTrace` does, in one place).
    public enum InvalidationCause: Sendable, CaseIterable, BitwiseCopyable {
        /// A dependency it read changed; the event's source is that dependency.
        case dependency
        /// Its parent computation was invalidated, which stops it; source is the parent.
        case parent
        /// `invalidate()` or `run()` was called.
        case explicit
        /// `stop()` was called (or, for a computed, the object was released).
        case stop
        /// The flush stopped it as a runaway: it kept invalidating itself within one flush.
        case runaway
        /// Its first run threw, which stops it (the error went to `onError` or the issue handler).
        case error
    }
}
