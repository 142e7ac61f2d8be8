/// Where a followed trace stands (see ``LiveTrace``).
public enum LiveTraceStatus: Sendable, Equatable {
    /// The file does not exist yet, or its header is not complete: the
    /// recording has not started. The text says what is awaited.
    case waiting(String)
    /// Events are landing; no end block yet.
    case recording
    /// The end block was read: the recording stopped cleanly.
    case finished
    /// A complete block is damaged: reading stopped there (the text says where and why).
    case damaged(String)

    /// A short word for a status line: `waiting`, `recording`, `finished` or `damaged`.
    public var label: String {
        switch self {
        case .waiting: "waiting"
        case .recording: "recording"
        case .finished: "finished"
        case .damaged: "damaged"
        }
    }

    /// True once nothing more will come (finished or damaged).
    public var isOver: Bool {
        switch self {
        case .finished, .damaged: true
        case .waiting, .recording: false
        }
    }
}
