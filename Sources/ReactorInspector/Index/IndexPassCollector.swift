import ReactorTraceFormat

/// The per-event part of an index's pass, in one walk over each batch's events: the chunk
/// table's figures (``TraceIndexCollector``) and, for a pass that takes snapshots, the sections
/// found by node (``PositionsCollector``, ``LightPointsCollector``'s creations,
/// ``MentionsCollector``). A walk each cost the build as much again as a `hot` pass's own
/// reading of the events.
///
/// A node is named by most events of a chunk many times over; the sections need only its first
/// mention and first value event in each chunk. Those are found with a load and a comparison per
/// node an event names (by id, for the small ids a recorder gives), and only they are handed on.
struct IndexPassCollector {
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
    /// The timeline's sums (a walk of its own: ``OverviewCollector``).
    private(set) var overview = OverviewCollector()
    private let marks = MarkTable()

    init(takesSections: Bool) {
        self.takesSections = takesSections
    }

    /// Takes a batch (never empty); ``TraceIndexCollector/finishBatch(endOffset:)`` of ``table``
    /// follows once the reader says where it ended.
    mutating func add(_ batch: borrowing TraceEventBatch) {
        guard takesSections else {
            table.add(batch)
            return
        }
        overview.add(batch)
        let chunk = table.batches.count
        let current = Int32(truncatingIfNeeded: chunk)
        var earliest = UInt64.max, latest: UInt64 = 0, values = false
        // Above every small id met beyond the marks so far (0: none).
        var beyond: UInt64 = 0
        let marks = self.marks.base, marked = UInt64(self.marks.count)
        /// Hands on node `id`'s first mention in the chunk.
        @inline(__always)
        func mention(_ id: UInt64) {
            guard id < marked else {
                if id < Self.smallIDs { beyond = max(beyond, id + 1) }
                mentions.mentioned(id, chunk: chunk)
                return
            }
            guard marks[Int(id)].mentioned != current else { return }
            marks[Int(id)].mentioned = current
            if marks[Int(id)].mentionSlot < 0 {
                marks[Int(id)].mentionSlot = Int32(mentions.slot(id))
            }
            mentions.mentioned(slot: Int(marks[Int(id)].mentionSlot), chunk: chunk)
        }
        // Id 0 names no node: marked as mentioned already.
        if marked > 0 { marks[0].mentioned = current }
        for event in batch.events {
            // The earliest and latest of every event, not the first and last (``TraceIndexCollector``).
            earliest = min(earliest, event.timestamp)
            latest = max(latest, event.timestamp)
            switch event.record {
            case let .depend(computation, dependency):
                mention(computation)
                mention(dependency)
            case let .invalidated(computation, _, source):
                mention(computation)
                mention(source)
            case let .rerunBegan(computation, _), let .rerunEnded(computation):
                mention(computation)
            case let .changed(dependency):
                mention(dependency)
            case let .value(id, _):
                values = true
                mention(id)
                guard id < marked else {
                    positions.value(id, chunk: chunk)
                    mentions.valued(id)
                    continue
                }
                guard marks[Int(id)].valued != current else { continue }
                marks[Int(id)].valued = current
                if marks[Int(id)].positionSlot < 0 {
                    marks[Int(id)].positionSlot = Int32(positions.slot(id))
                }
                positions.value(slot: Int(marks[Int(id)].positionSlot), chunk: chunk)
                if id != 0 { mentions.valued(slot: Int(marks[Int(id)].mentionSlot)) }
            case let .nodeCreated(id, kind, name, parent):
                mention(id)
                mention(parent)
                positions.created(id, kind: kind, name: batch.string(name), chunk: chunk)
                lightPoints.created(id, kind: kind, chunk: chunk)
                mentions.created(id, kind: kind, chunk: chunk)
            case let .nodeNamed(id, name, owner):
                mention(id)
                mention(owner)
                let text = batch.string(name)
                positions.named(id, name: text, chunk: chunk)
                table.named(id, name: text, owner: owner)
            case let .nodeStopped(id), let .actionBegan(id, _, _), let .actionEnded(id), let .issue(_, id, _),
                 let .site(id, _, _):
                mention(id)
            case .flushBegan, .flushEnded:
                break
            }
        }
        self.marks.cover(Int(beyond))
        table.took(thread: batch.thread, earliest: earliest, latest: latest, values: values)
    }
}
