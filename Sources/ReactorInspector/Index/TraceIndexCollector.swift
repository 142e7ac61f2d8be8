import ReactorTraceFormat

/// Gathers an index's figures from the batches of a pass, in order.
struct TraceIndexCollector {
    private(set) var batches: [TraceIndex.Batch] = []
    private var first: UInt64 = 0
    private var last: UInt64 = 0
    private var threads = 0
    private var latest: UInt64 = 0
    private var hasValues = false
    /// Every name event, in file order (``IndexedMoments/names``).
    private(set) var names: [IndexedMoments.Name] = []

    /// Takes a batch (never empty); ``finishBatch(endOffset:)`` follows once the reader says where it ended.
    mutating func add(_ batch: borrowing TraceEventBatch) {
        // The earliest and latest of every event, not the first and last: the stop rule must
        // not depend on a reader's times never decreasing within a chunk.
        var earliest = UInt64.max, latestInBatch: UInt64 = 0, values = false
        for event in batch.events {
            earliest = min(earliest, event.timestamp)
            latestInBatch = max(latestInBatch, event.timestamp)
            switch event.record {
            case let .nodeNamed(id, name, owner): named(id, name: batch.string(name), owner: owner)
            case .value: values = true
            default: break
            }
        }
        took(thread: batch.thread, earliest: earliest, latest: latestInBatch, values: values)
    }

    /// A name event of the batch being taken, for a walk over its events that is not ``add(_:)``'s.
    mutating func named(_ id: UInt64, name: String, owner: UInt64) {
        names.append(IndexedMoments.Name(batch: batches.count, id: id, name: name, owner: owner))
    }

    /// Takes a batch (never empty) of `thread` whose events a walk other than ``add(_:)``'s read,
    /// telling ``named(_:name:owner:)`` its name events: their earliest and latest times, and
    /// whether one is a value event.
    mutating func took(thread: UInt32, earliest: UInt64, latest latestInBatch: UInt64, values: Bool) {
        first = earliest
        last = latestInBatch
        threads = max(threads, Int(thread) + 1)
        hasValues = hasValues || values
    }

    /// Records the batch just added, which ended at `endOffset`, and returns it.
    mutating func finishBatch(endOffset: UInt64) -> TraceIndex.Batch {
        let batch = TraceIndex.Batch(endOffset: endOffset, firstTime: first, lastTime: last)
        batches.append(batch)
        latest = max(latest, last)
        return batch
    }

    /// The index of a whole pass that ended with `report`.
    func index(identity: TraceIndex.Identity, report: TraceReadReport) -> TraceIndex {
        TraceIndex(identity: identity, events: report.events, skippedEvents: report.skippedEvents,
                   clockEvents: report.clockEvents, truncation: report.truncation,
                   trailingBytesOffset: report.trailingBytesOffset, end: report.end, threadCount: threads,
                   latestTimestamp: latest, hasValues: hasValues, batches: batches,
                   moments: IndexedMoments(entries: [], names: names))
    }
}
