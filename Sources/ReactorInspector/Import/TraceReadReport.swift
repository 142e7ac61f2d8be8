import ReactorTraceFormat

/// How reading a trace file went.
public struct TraceReadReport: Sendable, Equatable {
    /// The file.
    public let path: String
    /// Events read.
    public let events: Int
    /// Where and why reading stopped early; nil for an intact trace.
    public let truncation: TraceTruncation?
    /// The end block, if the trace has one (how the recording ended, what it lost).
    public let end: TraceEnd?

    /// Creates a report.
    public init(path: String, events: Int, truncation: TraceTruncation?, end: TraceEnd? = nil) {
        self.path = path
        self.events = events
        self.truncation = truncation
        self.end = end
    }

    /// One warning line for a damaged or unfinished trace, nil for an intact one.
    public var warning: String? {
        guard let truncation else { return nil }
        return "\(path): \(truncation.reason); showing the \(events) events read before it"
    }
}
