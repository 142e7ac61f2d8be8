/// The events of one chunk of a trace, lent by ``TraceReader/forEachBatch(_:)``
/// in the reader's own buffer: valid only inside the closure that receives it
/// (it is not copyable, and ``events`` must not escape).
///
/// Every event of a batch comes from one thread (``thread``); their strings are
/// ``TraceStringID``s into that thread's table, ``strings``.
public struct TraceEventBatch: ~Copyable {
    /// The events, in trace order: plain data, read in place.
    public let events: UnsafeBufferPointer<PlainTraceEvent>
    /// The string table of the batch's thread, indexed by ``TraceStringID/index``
    /// (it holds every string the thread's current context has defined so far).
    public let strings: [String]
    /// The recording thread of every event of the batch.
    public let thread: UInt32

    /// A batch over `events`, whose strings are in `strings`.
    public init(events: UnsafeBufferPointer<PlainTraceEvent>, strings: [String], thread: UInt32) {
        self.events = events
        self.strings = strings
        self.thread = thread
    }

    /// How many events the batch holds.
    @inlinable
    public var count: Int { events.count }

    /// The string `id` stands for (it must come from this batch's events).
    @inlinable
    public func string(_ id: TraceStringID) -> String { strings[Int(id.index)] }

    /// The event at `position` as a ``TraceEvent``, strings resolved.
    @inlinable
    public func event(at position: Int) -> TraceEvent { events[position].resolved(in: strings) }
}
