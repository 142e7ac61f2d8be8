/// Where a followed trace stands (see ``LiveTrace``).
public enum LiveTraceStatus: Sendable, Equatable {
    /// The file does not exist yet, or its header is not complete: the
    /// recording has not started. The text says what is awaited.
    case waiting(String)
    /// Events are landing; no end block yet.
    case recording
    /// The end block was read: the recording ended (stopped, or its process was
    /// signalled or crashed and ended it first; ``LiveTrace/end`` says how).
    case finished
    /// No end block, nothing more to read, and the recording process (the pid in the
    /// header) no longer exists: the writer is gone without ending the trace (SIGKILL, a
    /// crash it could not flush). The text says so.
    case stalled(String)
    /// A complete block is damaged: reading stopped there (the text says where and why).
    case damaged(String)

    /// A short word for a status line: `waiting`, `recording`, `finished`, `stalled` or `damaged`.
    public var label: String {
        switch self {
        case .waiting: "waiting"
        case .recording: "recording"
        case .finished: "finished"
        case .stalled: "stalled"
        case .damaged: "damaged"
        }
    }

    /// True once nothing more will come (finished, stalled or damaged).
    public var isOver: Bool {
        switch self {
        case .finished, .stalled, .damaged: true
        case .waiting, .recording: false
        }
    }
}
