import ReactorTraceFormat

/// How reading a trace file went.
public struct TraceReadReport: Sendable, Equatable {
    /// The file.
    public let path: String
    /// Events read.
    public let events: Int
    /// Where and why reading stopped early; nil for an intact trace.
    public let truncation: TraceTruncation?

    /// Creates a report.
    public init(path: String, events: Int, truncation: TraceTruncation?) {
        self.path = path
        self.events = events
        self.truncation = truncation
    }

    /// One warning line for a damaged or unfinished trace, nil for an intact one.
    public var warning: String? {
        guard let truncation else { return nil }
        return "\(path): \(truncation.reason); showing the \(events) events read before it"
    }
}
