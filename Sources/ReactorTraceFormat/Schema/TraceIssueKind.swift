/// The kind of a reported issue, as it appears in the trace; the raw value is its code in the log.
public enum TraceIssueKind: UInt8, Sendable, CaseIterable, BitwiseCopyable {
    /// `flush()` was called while a flush was running.
    case nestedFlush = 1
    /// `flush()` was called inside a computation.
    case flushInsideComputation = 2
    /// A computation threw and no `onError` handled it.
    case uncaughtError = 3
    /// A computation kept invalidating itself within one flush and was stopped.
    case runaway = 4
    /// Computed values read each other in a cycle.
    case cycle = 5
    /// A store's state was written outside one of its actions.
    case writeOutsideAction = 6
    /// Another misuse of the API.
    case misuse = 7
    /// A thread waited longer than the threshold for the runtime's lock; the
    /// event's node is the computation its holder was running.
    case lockWait = 8
}
