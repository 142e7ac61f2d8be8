/// ``TraceEvent`` as plain data, as ``TraceReader/forEachBatch(_:)`` hands it
/// out: strings are ``TraceStringID``s into the batch's string table, so the
/// event is `BitwiseCopyable` (40 bytes, copied without reference counting).
public struct PlainTraceEvent: Sendable, Hashable, BitwiseCopyable {
    /// What happened (first: the record's tag byte then packs with `thread`).
    public var record: PlainTraceRecord
    /// The recording thread's index in this trace (0, 1, 2… in order of first event).
    public var thread: UInt32
    /// Nanoseconds since the trace began (see ``TraceEvent/timestamp``).
    public var timestamp: UInt64

    /// Creates an event.
    @inlinable
    public init(timestamp: UInt64, thread: UInt32, record: PlainTraceRecord) {
        self.record = record
        self.thread = thread
        self.timestamp = timestamp
    }

    /// The event with its strings looked up in `strings` (the thread's table).
    @inlinable
    public func resolved(in strings: [String]) -> TraceEvent {
        TraceEvent(timestamp: timestamp, thread: thread, record: record.resolved(in: strings))
    }
}
