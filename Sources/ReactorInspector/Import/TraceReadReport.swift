import ReactorTraceFormat

/// How reading a trace file went.
public struct TraceReadReport: Sendable, Equatable {
    /// The file.
    public let path: String
    /// Events read.
    public let events: Int
    /// Where and why reading stopped early; nil for an intact trace.
    public let truncation: TraceTruncation?
    /// Events of kinds or values this reader does not know, skipped (not in `events`).
    public let skippedEvents: Int
    /// Clock events read (they set a thread's time and carry nothing else; not in `events`).
    public let clockEvents: Int
    /// Every event read: decoded, skipped and clock events, as the end block
    /// and `summary` count them (docs/METRICS.md, "events").
    public var totalEvents: Int { events + skippedEvents + clockEvents }
    /// Where bytes after the intact end block begin, if the file has any.
    public let trailingBytesOffset: Int?
    /// The end block, if the trace has one (how the recording ended, what it lost).
    public let end: TraceEnd?
    /// Whether the trace was still being recorded: read as far as it was
    /// written when reading began (``TraceReader/isStillRecording``), not damaged.
    public let stillRecording: Bool

    /// Creates a report.
    public init(path: String, events: Int, truncation: TraceTruncation?, skippedEvents: Int = 0,
                clockEvents: Int = 0, trailingBytesOffset: Int? = nil, end: TraceEnd? = nil,
                stillRecording: Bool = false) {
        self.path = path
        self.events = events
        self.truncation = truncation
        self.skippedEvents = skippedEvents
        self.clockEvents = clockEvents
        self.trailingBytesOffset = trailingBytesOffset
        self.end = end
        self.stillRecording = stillRecording
    }

    /// One notice for an intact trace followed by bytes that are not part of
    /// it (read in full all the same), nil otherwise.
    public var trailingBytesNotice: String? {
        guard truncation == nil, let trailingBytesOffset else { return nil }
        return "\(path): bytes after the end block at offset \(trailingBytesOffset) are not part of the trace; ignored"
    }

    /// One notice for a trace still being recorded (read as far as it was
    /// written when reading began), nil otherwise.
    public var stillRecordingNotice: String? {
        guard stillRecording, truncation == nil else { return nil }
        return "\(path) is still being recorded: showing the \(totalEvents) events written when reading began"
    }

    /// One warning line for a damaged or unfinished trace, nil for an intact one.
    public var warning: String? {
        guard let truncation else { return nil }
        return "\(path): \(truncation.reason); showing the \(totalEvents) events read before it"
    }
}
