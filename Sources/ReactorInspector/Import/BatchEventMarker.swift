import ReactorTraceFormat

/// What a pass gathers from each event's node ids beside a ``TraceModelBuilder`` (an index's
/// sections found by node: ``IndexPassCollector``), told from the builder's own walk over a
/// batch (``TraceModelBuilder/consume(_:marking:)``): one dispatch on each event's kind, where
/// a walk of its own would read every event again and mispredict its own switch as often.
///
/// The builder calls, for a batch that is not empty: ``began()``, then for each event in order
/// ``at(_:)`` and the calls its kind makes (below), then ``ended(thread:)``. An event tells each
/// node id it names once, in its fields' order; flushes name none.
protocol BatchEventMarker {
    /// Before the batch's first event.
    mutating func began()
    /// The time of the next event.
    mutating func at(_ time: UInt64)
    /// The event names node `id` (0: no node): every kind but a value, creation or naming event,
    /// which tell their own below.
    mutating func mentioned(_ id: UInt64)
    /// A value event of node `id`.
    mutating func valued(_ id: UInt64)
    /// A creation event of node `id` as `kind` named `name` inside node `parent` (0: none).
    mutating func created(_ id: UInt64, kind: TraceNodeKind, name: String, parent: UInt64)
    /// A naming event of node `id`, named `name`, owned by node `owner` (0: none).
    mutating func named(_ id: UInt64, name: String, owner: UInt64)
    /// After the batch's last event; the batch was `thread`'s.
    mutating func ended(thread: UInt32)
}

/// Marks nothing: the builder's paths that gather nothing beside it.
struct NoBatchEventMarker: BatchEventMarker {
    /// One stored byte: an empty struct's `inout` address is one shared placeholder, whose
    /// access tracking ThreadSanitizer reports as a race between builders on two threads.
    private var storage: UInt8 = 0
    @inline(__always) mutating func began() {}
    @inline(__always) mutating func at(_ time: UInt64) {}
    @inline(__always) mutating func mentioned(_ id: UInt64) {}
    @inline(__always) mutating func valued(_ id: UInt64) {}
    @inline(__always) mutating func created(_ id: UInt64, kind: TraceNodeKind, name: String, parent: UInt64) {}
    @inline(__always) mutating func named(_ id: UInt64, name: String, owner: UInt64) {}
    @inline(__always) mutating func ended(thread: UInt32) {}
}
