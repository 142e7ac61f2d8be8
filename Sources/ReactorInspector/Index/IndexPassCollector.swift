import ReactorTraceFormat

/// The per-event part of an index's pass: the chunk table's figures (``TraceIndexCollector``)
/// and, for a pass that takes snapshots, the sections found by node (``PositionsCollector``,
/// ``LightPointsCollector``'s creations, ``MentionsCollector``). Those are told from the
/// snapshots' builder's own walk over each batch (``BatchEventMarker``): a walk of their own
/// cost the build about 0.15× a `hot` pass, reading every event again and mispredicting its
/// switch on the event's kind as often as the builder's.
///
/// A node is named by most events of a chunk many times over; the sections need only its first
/// mention and first value event in each chunk. Those are found with a load and a comparison per
/// node an event names (by id, for the small ids a recorder gives), and only they are handed on.
struct IndexPassCollector: BatchEventMarker {
    /// Per node id, the last chunk that mentioned the node and the last with a value event of it
    /// (-1: none yet), and its slots in the collectors once known (-1: not yet): all a mention
    /// or value event after the first in a chunk reads, in one place.
    private struct Marks {
        var mentioned: Int32 = -1
        var valued: Int32 = -1
        var mentionSlot: Int32 = -1
        var positionSlot: Int32 = -1
    }

    /// The marks by id, in memory the walk reads and writes through a pointer: no uniqueness
    /// check per write, and the walk's figures stay in registers (a closure lending an array's
    /// buffer would keep them in its context). Internal storage of one collector, on one thread.
    private final class MarkTable {
        private(set) var base: UnsafeMutablePointer<Marks>
        private(set) var count = 0

        init() { base = .allocate(capacity: 0) }

        deinit {
            base.deinitialize(count: count)
            base.deallocate()
        }

        /// Marks for ids below `newCount` at least (about twice as many, once it grows).
        func cover(_ newCount: Int) {
            guard newCount > count else { return }
            let grown = Swift.max(newCount, count * 2)
            let larger = UnsafeMutablePointer<Marks>.allocate(capacity: grown)
            larger.moveInitialize(from: base, count: count)
            (larger + count).initialize(repeating: Marks(), count: grown - count)
            base.deallocate()
            base = larger
            count = grown
        }
    }

    /// Ids below this get marks (an entry each, up to the largest met); larger ones are handed
    /// on at every event (the collectors find their own repeats): the collectors' own bound.
    private static let smallIDs = NodeSlots.smallIDs

    /// Whether the pass gathers the sections found by node (else only the chunk table).
    let takesSections: Bool
    var table = TraceIndexCollector()
    private(set) var positions = PositionsCollector()
    /// The light points, whose ``LightPointsCollector/ended(_:builder:reader:)`` the pass calls after each batch.
    var lightPoints = LightPointsCollector()
    private(set) var mentions = MentionsCollector()
    private let marks: MarkTable

    init(takesSections: Bool) {
        self.takesSections = takesSections
        marks = MarkTable()
        markBase = marks.base
    }

    /// Takes a batch (never empty) that no builder of the pass reads, for the chunk table alone
    /// (a pass that gathers no sections); ``TraceIndexCollector/finishBatch(endOffset:)`` of
    /// ``table`` follows once the reader says where it ended.
    mutating func add(_ batch: borrowing TraceEventBatch) {
        precondition(!takesSections, "a pass that gathers sections hears the events from its builder")
        table.add(batch)
    }

    /// Feeds a batch to `builder` (the builder whose snapshots the index keeps: every event
    /// applied) and takes it, as ``add(_:)`` does, with the sections from the builder's walk.
    mutating func add(_ batch: borrowing TraceEventBatch, feeding builder: TraceModelBuilder) {
        guard takesSections, !batch.events.isEmpty else {
            builder.consume(batch)
            table.add(batch)
            return
        }
        builder.consume(batch, marking: &self)
    }

    // MARK: - What the builder's walk tells (``BatchEventMarker``)

    /// The batch being walked: its chunk's position, and as the marks compare it.
    private var chunk = 0
    private var current: Int32 = 0
    private var earliest = UInt64.max
    private var latest: UInt64 = 0
    private var values = false
    /// Above every small id met beyond the marks so far (0: none).
    private var beyond: UInt64 = 0
    /// The marks as the walk reads them (the table's storage, which grows only between batches).
    private var marked: UInt64 = 0
    private var markBase: UnsafeMutablePointer<Marks>

    @inline(__always)
    mutating func began() {
        chunk = table.batches.count
        current = Int32(truncatingIfNeeded: chunk)
        earliest = .max
        latest = 0
        values = false
        beyond = 0
        markBase = marks.base
        marked = UInt64(marks.count)
        // Id 0 names no node: marked as mentioned already.
        if marked > 0 { markBase[0].mentioned = current }
    }

    @inline(__always)
    mutating func at(_ time: UInt64) {
        // The earliest and latest of every event, not the first and last (``TraceIndexCollector``).
        earliest = min(earliest, time)
        latest = max(latest, time)
    }

    /// Hands on node `id`'s first mention in the chunk.
    @inline(__always)
    mutating func mentioned(_ id: UInt64) {
        guard id < marked else {
            if id < Self.smallIDs { beyond = max(beyond, id + 1) }
            mentions.mentioned(id, chunk: chunk)
            return
        }
        guard markBase[Int(id)].mentioned != current else { return }
        markBase[Int(id)].mentioned = current
        if markBase[Int(id)].mentionSlot < 0 {
            markBase[Int(id)].mentionSlot = Int32(mentions.slot(id))
        }
        mentions.mentioned(slot: Int(markBase[Int(id)].mentionSlot), chunk: chunk)
    }

    @inline(__always)
    mutating func valued(_ id: UInt64) {
        values = true
        mentioned(id)
        guard id < marked else {
            positions.value(id, chunk: chunk)
            mentions.valued(id)
            return
        }
        guard markBase[Int(id)].valued != current else { return }
        markBase[Int(id)].valued = current
        if markBase[Int(id)].positionSlot < 0 {
            markBase[Int(id)].positionSlot = Int32(positions.slot(id))
        }
        positions.value(slot: Int(markBase[Int(id)].positionSlot), chunk: chunk)
        if id != 0 { mentions.valued(slot: Int(markBase[Int(id)].mentionSlot)) }
    }

    mutating func created(_ id: UInt64, kind: TraceNodeKind, name: String, parent: UInt64) {
        mentioned(id)
        mentioned(parent)
        positions.created(id, kind: kind, name: name, chunk: chunk)
        lightPoints.created(id, kind: kind, chunk: chunk)
        mentions.created(id, kind: kind, chunk: chunk)
    }

    mutating func named(_ id: UInt64, name: String, owner: UInt64) {
        mentioned(id)
        mentioned(owner)
        positions.named(id, name: name, chunk: chunk)
        table.named(id, name: name, owner: owner)
    }

    @inline(__always)
    mutating func ended(thread: UInt32) {
        marks.cover(Int(beyond))
        table.took(thread: thread, earliest: earliest, latest: latest, values: values)
    }
}
