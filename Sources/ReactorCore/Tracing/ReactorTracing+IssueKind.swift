extension ReactorTracing {
    /// The kind of an issue ``ReactorTracer/issue(_:node:message:)`` reports.
    ///
    /// The runtime's own vocabulary: a recorder maps each case to the trace
    /// schema's issue kind of the same name (`ReactorTrace` does, in one place).
    public enum IssueKind: Sendable, CaseIterable, BitwiseCopyable {
        /// `flush()` was called while a flush was running.
        case nestedFlush
        /// `flush()` was called inside a computation.
        case flushInsideComputation
        /// A computation threw and no `onError` handled it.
        case uncaughtError
        /// A computation kept invalidating itself within one flush and was stopped.
        case runaway
        /// Computed values read each other in a cycle.
        case cycle
        /// A store's state was written outside one of its actions.
        case writeOutsideAction
        /// Another misuse of the API.
        case misuse
        /// A thread waited longer than the threshold for the runtime's lock; the
        /// event's node is the computation its holder was running.
        case lockWait
    }
}
