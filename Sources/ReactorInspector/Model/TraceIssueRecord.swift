import ReactorTraceFormat

/// An issue the runtime reported, as recorded in the trace.
public struct TraceIssueRecord: Sendable, Equatable {
    /// When it was reported.
    public let timestamp: UInt64
    /// What kind of issue.
    public let kind: TraceIssueKind
    /// The computation or store concerned, or 0.
    public let node: UInt64
    /// The runtime's one-line description.
    public let message: String

    /// Creates a record.
    public init(timestamp: UInt64, kind: TraceIssueKind, node: UInt64, message: String) {
        self.timestamp = timestamp
        self.kind = kind
        self.node = node
        self.message = message
    }
}

extension TraceIssueKind {
    /// The issue's name in reports (`runaway`, `write-outside-action`…).
    public var label: String {
        switch self {
        case .nestedFlush: "nested-flush"
        case .flushInsideComputation: "flush-inside-computation"
        case .uncaughtError: "uncaught-error"
        case .runaway: "runaway"
        case .cycle: "cycle"
        case .writeOutsideAction: "write-outside-action"
        case .misuse: "misuse"
        case .lockWait: "lock-wait"
        }
    }
}
