/// What the end block of a cleanly stopped trace says.
public struct TraceEnd: Sendable, Equatable {
    /// Events the recorder wrote.
    public var events: UInt64
    /// Chunks the recorder wrote.
    public var chunks: UInt64
    /// Nanoseconds from the start of recording to its stop.
    public var durationNanoseconds: UInt64
    /// Threads that recorded events.
    public var threads: UInt32

    /// An end block with the given fields.
    public init(events: UInt64, chunks: UInt64, durationNanoseconds: UInt64, threads: UInt32) {
        self.events = events
        self.chunks = chunks
        self.durationNanoseconds = durationNanoseconds
        self.threads = threads
    }
}
