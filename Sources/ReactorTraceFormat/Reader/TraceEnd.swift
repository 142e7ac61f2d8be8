/// What the end block of a trace says: the recording ended (stopped, or the
/// process died and flushed it first) and how much it holds.
public struct TraceEnd: Sendable, Equatable {
    /// Events the recorder wrote.
    public var events: UInt64
    /// Chunks the recorder wrote.
    public var chunks: UInt64
    /// Nanoseconds from the start of recording to its stop.
    public var durationNanoseconds: UInt64
    /// Threads that recorded events.
    public var threads: UInt32
    /// Events recorded but not written (a write error, such as a full disk,
    /// made the recorder drop them); 0 in traces of format 1.0.
    public var eventsDropped: UInt64
    /// How the recording ended; `.stopped` in traces of format 1.0.
    public var termination: TraceTermination

    /// An end block with the given fields.
    public init(events: UInt64, chunks: UInt64, durationNanoseconds: UInt64, threads: UInt32,
                eventsDropped: UInt64 = 0, termination: TraceTermination = .stopped) {
        self.events = events
        self.chunks = chunks
        self.durationNanoseconds = durationNanoseconds
        self.threads = threads
        self.eventsDropped = eventsDropped
        self.termination = termination
    }
}
