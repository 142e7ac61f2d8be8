import ReactorTraceFormat

/// Gathers the index's overview (``IndexedOverview``) from the batches of a pass, in order, as
/// the builder whose walk reads them tells it (``BatchEventMarker``): the runs, actions and
/// flushes as the importer pairs them, each named as the importer names it when it ends
/// (``TraceTimelineBuilder/label(_:node:action:_:)``), from the creation and naming events
/// told before it.
///
/// The chunks are grouped in stretches of about ``eventsPerStretch`` events. Per stretch, each
/// slice that ended in it and is narrower than the stretch's bucket (a power of two of
/// nanoseconds) is summed into its row's bucket of its beginning; wider ones are kept as they
/// are; and its first ``TraceTimeline/markerLimit`` issues. A stretch's bucket is as fine as
/// ``eventsPerRecord`` allows: doubled while it keeps more records than that.
struct OverviewCollector: BatchEventMarker {
    /// Events per stretch (at least; a stretch ends at the end of a chunk).
    let eventsPerStretch: Int
    /// A stretch keeps at most one record (a sum or a slice) per this many of its events (0: as
    /// many as it has, every bucket a nanosecond).
    let eventsPerRecord: Int

    /// A collector of stretches of `eventsPerStretch` events, keeping a record per `eventsPerRecord` events.
    init(eventsPerStretch: Int = 1 << 20, eventsPerRecord: Int = 384) {
        self.eventsPerStretch = eventsPerStretch
        self.eventsPerRecord = eventsPerRecord
    }

    /// Slices narrower than the bucket of one row, summed per bucket (``TraceTimelineBuilder/Sum``, with a label).
    struct Sum {
        var thread: UInt32
        var depth: Int32
        var bucket: UInt64
        var count: Int
        var total: UInt64
        var longest: UInt64
        var longestBegin: UInt64
        var label: Int32
    }

    /// A slice kept as it is.
    struct Slice {
        var thread: UInt32
        var depth: Int32
        var begin: UInt64
        var duration: UInt64
        var label: Int32
    }

    /// An issue.
    struct Issue {
        var thread: UInt32
        var time: UInt64
        var kind: String
        var message: String
    }

    /// One thread's sum being made per row (by depth + 1: flushes first).
    private struct ThreadState {
        var rows: [Sum] = []
    }

    /// A node's name and kind as created (nil: only referred to), for the nodes a creation or name event is about.
    private struct NodeName {
        var givenName = ""
        var created: TraceNodeKind?
    }

    private var threads: [UInt32: ThreadState] = [:]
    /// Memory for one thread's rows, which the per-slice path reads and writes through a pointer
    /// (no uniqueness check per slice). Internal storage of one collector: a copy only reads it.
    private final class RowStorage {
        let base: UnsafeMutablePointer<Sum>
        let capacity: Int

        init(capacity: Int) {
            base = .allocate(capacity: capacity)
            self.capacity = capacity
        }

        deinit { base.deallocate() }
    }

    /// The thread whose rows are in ``rowStorage`` (-1: none; not in ``threads`` meanwhile), and how many.
    private var rowsThread: Int64 = -1
    private var rowCount = 0
    private var rowStorage = RowStorage(capacity: 16)
    /// Each label's name and kind, and the label of each.
    private(set) var labels: [(name: String, kind: String)] = []
    private var labelOf: [String: Int32] = [:]
    private var nodeNames: [UInt64: NodeName] = [:]
    /// Per small node id, its run's label (-1: not known yet); larger ids in ``largeNodeLabels``.
    private var nodeLabels: [Int32] = []
    private var largeNodeLabels: [UInt64: Int32] = [:]

    /// The stretch being gathered.
    private var shift = 0
    private var sums: [Sum] = []
    private var slices: [Slice] = []
    private var issues: [Issue] = []
    private var moreIssues = false
    private var stretchEvents = 0
    private var stretchChunks = 0
    /// The stretches gathered, as the section holds them.
    private var stretches = IndexFieldWriter()
    private var stretchCount = 0

    // MARK: - What the builder's walk tells (``BatchEventMarker``)

    static var marksSlices: Bool { true }
    @inline(__always) mutating func began() {}
    @inline(__always) mutating func at(_ time: UInt64) {}
    @inline(__always) mutating func mentioned(_ id: UInt64) {}
    @inline(__always) mutating func valued(_ id: UInt64) {}
    @inline(__always) mutating func ended(thread: UInt32) {}

    mutating func created(_ id: UInt64, kind: TraceNodeKind, name: String, parent: UInt64) {
        var known = nodeNames[id] ?? NodeName()
        known.created = kind
        if !name.isEmpty || known.givenName.isEmpty { known.givenName = name }
        nodeNames[id] = known
        forgetLabel(ofNode: id)
    }

    mutating func named(_ id: UInt64, name: String, owner: UInt64) {
        nodeNames[id, default: NodeName()].givenName = name
        forgetLabel(ofNode: id)
    }

    @inline(__always)
    mutating func sliceEnded(thread: UInt32, kind: ImportedSlice.Kind, begin: UInt64, duration: UInt64, depth: Int,
                             node: UInt64, action: String) {
        if summed(thread: thread, begin: begin, duration: duration, depth: depth) { return }
        added(thread: thread, kind: kind, begin: begin, duration: duration, depth: depth, node: node, action: action)
    }

    /// Adds a slice to its row's sum when that is all it takes (the most common case: its
    /// thread's rows at hand, narrower than the bucket, in the row's bucket and shorter than its
    /// longest, so that its name is not needed): true; else false, and nothing done.
    @inline(__always)
    private mutating func summed(thread: UInt32, begin: UInt64, duration: UInt64, depth: Int) -> Bool {
        let row = depth &+ 1
        guard Int64(thread) == rowsThread, UInt(bitPattern: row) < UInt(bitPattern: rowCount),
              duration &>> shift == 0 else { return false }
        let sum = rowStorage.base + row
        guard sum.pointee.count > 0, sum.pointee.bucket == begin &>> shift, duration < sum.pointee.longest
        else { return false }
        sum.pointee.count &+= 1
        sum.pointee.total = sum.pointee.total.saturatingAdd(duration)
        return true
    }

    /// The rest of ``sliceEnded(thread:kind:begin:duration:depth:node:action:)``, out of line: inlined
    /// into the builder's switch, its code made the builder's own array accesses there calls.
    @inline(never)
    private mutating func added(thread: UInt32, kind: ImportedSlice.Kind, begin: UInt64, duration: UInt64, depth: Int,
                                node: UInt64, action: String) {
        let label = switch kind {
        case .run: label(ofNode: node)
        case .action: label(name: node == 0 ? action : "\(displayName(ofNode: node)).\(action)", kind: "action")
        case .flush: flushLabel >= 0 ? flushLabel : madeFlushLabel()
        }
        ended(thread: thread, depth: depth, begin: begin, duration: duration, label: label)
    }

    mutating func issued(thread: UInt32, time: UInt64, kind: TraceIssueKind, message: String) {
        if issues.count < TraceTimeline.markerLimit {
            issues.append(Issue(thread: thread, time: time, kind: kind.budgetName, message: message))
        } else {
            moreIssues = true
        }
    }

    /// The builder's walk over a batch of `events` events (one chunk) ended.
    mutating func took(events: Int) {
        stretchEvents += events
        stretchChunks += 1
        let limit = budget(events: stretchEvents)
        while sums.count + slices.count > 4 * limit, shift < 63 { coarsen() }
        if stretchEvents >= eventsPerStretch {
            closeStretch()
            stretchCount += 1
        }
    }

    /// The most records a stretch of `events` events keeps.
    private func budget(events: Int) -> Int {
        eventsPerRecord == 0 ? Int.max / 8 : max(16, events / eventsPerRecord)
    }

    /// A run, action or flush that ended, named `label`.
    @inline(__always)
    private mutating func ended(thread: UInt32, depth: Int, begin: UInt64, duration: UInt64, label: Int32) {
        guard duration >> shift == 0 else {
            slices.append(Slice(thread: thread, depth: Int32(truncatingIfNeeded: depth), begin: begin, duration: duration,
                                label: label))
            return
        }
        if Int64(thread) != rowsThread { takeRows(of: thread) }
        let row = depth + 1
        if row >= rowCount { addRows(upTo: row, thread: thread) }
        let bucket = begin >> shift
        let sum = rowStorage.base + row
        if sum.pointee.count > 0, sum.pointee.bucket == bucket {
            sum.pointee.count += 1
            sum.pointee.total = sum.pointee.total.saturatingAdd(duration)
            if isLonger(duration, begin: begin, label: label, than: sum.pointee) {
                sum.pointee.longest = duration
                sum.pointee.longestBegin = begin
                sum.pointee.label = label
            }
            return
        }
        if sum.pointee.count > 0 { sums.append(sum.pointee) }
        sum.pointee = Sum(thread: thread, depth: Int32(truncatingIfNeeded: depth), bucket: bucket, count: 1,
                          total: duration, longest: duration, longestBegin: begin, label: label)
    }

    /// Makes `thread`'s rows the ones summed into (the others' kept in ``threads``).
    private mutating func takeRows(of thread: UInt32) {
        shelveRows()
        let rows = threads.removeValue(forKey: thread)?.rows ?? []
        reserveRows(rows.count)
        rowStorage.base.initialize(from: rows, count: rows.count)
        rowCount = rows.count
        rowsThread = Int64(thread)
    }

    /// Empty rows up to `row`.
    private mutating func addRows(upTo row: Int, thread: UInt32) {
        reserveRows(row + 1)
        (rowStorage.base + rowCount).initialize(repeating: Sum(thread: thread, depth: 0, bucket: 0, count: 0, total: 0,
                                                                longest: 0, longestBegin: 0, label: -1),
                                                 count: row + 1 - rowCount)
        rowCount = row + 1
    }

    /// Room for `count` rows (the rows held kept).
    private mutating func reserveRows(_ count: Int) {
        guard count > rowStorage.capacity else { return }
        let larger = RowStorage(capacity: Swift.max(count, 2 * rowStorage.capacity))
        larger.base.initialize(from: rowStorage.base, count: rowCount)
        rowStorage = larger
    }

    /// Puts the rows of the thread last summed back with the others. Only reads the row storage:
    /// a copy of the collector (``overview(open:)``) shares it.
    private mutating func shelveRows() {
        if rowsThread >= 0 {
            threads[UInt32(rowsThread)] = ThreadState(rows: Array(UnsafeBufferPointer(start: rowStorage.base,
                                                                                        count: rowCount)))
        }
        rowsThread = -1
        rowCount = 0
    }

    /// ``TraceTimelineBuilder/Sum/isOutdone(by:begin:name:kind:)`` for a sum of labels.
    @inline(__always)
    private func isLonger(_ duration: UInt64, begin: UInt64, label: Int32, than sum: Sum) -> Bool {
        if duration != sum.longest { return duration > sum.longest }
        if begin != sum.longestBegin { return begin < sum.longestBegin }
        let mine = labels[Int(label)], theirs = labels[Int(sum.label)]
        if mine.name != theirs.name { return mine.name < theirs.name }
        return mine.kind < theirs.kind
    }

    /// Adds `other` into `sum` (the same row and bucket).
    private func merge(_ other: Sum, into sum: inout Sum) {
        if isLonger(other.longest, begin: other.longestBegin, label: other.label, than: sum) {
            sum.longest = other.longest
            sum.longestBegin = other.longestBegin
            sum.label = other.label
        }
        sum.count += other.count
        sum.total = sum.total.saturatingAdd(other.total)
    }

    // MARK: - Labels

    /// The flushes' label once made (-1: not yet).
    private var flushLabel: Int32 = -1

    private mutating func madeFlushLabel() -> Int32 {
        flushLabel = label(name: "flush", kind: "flush")
        return flushLabel
    }

    /// The label of `name`, `kind`.
    private mutating func label(name: String, kind: String) -> Int32 {
        let key = name + "\u{0}" + kind
        if let known = labelOf[key] { return known }
        let label = Int32(labels.count)
        labels.append((name, kind))
        labelOf[key] = label
        return label
    }

    /// The name every view shows for node `id` now (``TraceNode/name``).
    private func displayName(ofNode id: UInt64) -> String {
        let known = nodeNames[id]
        if let known, !known.givenName.isEmpty { return known.givenName }
        return TraceNode.unnamed(id, createdAs: known?.created)
    }

    /// The label of a run of node `id` now.
    @inline(__always)
    private mutating func label(ofNode id: UInt64) -> Int32 {
        if id < NodeSlots.smallIDs, Int(id) < nodeLabels.count, nodeLabels[Int(id)] >= 0 { return nodeLabels[Int(id)] }
        if id >= NodeSlots.smallIDs, let known = largeNodeLabels[id] { return known }
        let made = label(name: displayName(ofNode: id), kind: (nodeNames[id]?.created ?? .computation).label)
        if id < NodeSlots.smallIDs {
            if Int(id) >= nodeLabels.count {
                nodeLabels.append(contentsOf: repeatElement(-1, count: max(Int(id) + 1 - nodeLabels.count, nodeLabels.count)))
            }
            nodeLabels[Int(id)] = made
        } else {
            largeNodeLabels[id] = made
        }
        return made
    }

    /// Node `id`'s name or kind changed.
    private mutating func forgetLabel(ofNode id: UInt64) {
        if id < NodeSlots.smallIDs {
            if Int(id) < nodeLabels.count { nodeLabels[Int(id)] = -1 }
        } else {
            largeNodeLabels[id] = nil
        }
    }

    // MARK: - Stretches

    /// Doubles the stretch's bucket: sums merge in pairs, and kept slices narrower than it become sums.
    private mutating func coarsen() {
        shelveRows()
        shift += 1
        for key in threads.keys {
            for row in threads[key]!.rows.indices { threads[key]!.rows[row].bucket >>= 1 }
        }
        for position in sums.indices { sums[position].bucket >>= 1 }
        slices.removeAll { slice in
            guard slice.duration >> shift == 0 else { return false }
            sums.append(Sum(thread: slice.thread, depth: slice.depth, bucket: slice.begin >> shift, count: 1,
                            total: slice.duration, longest: slice.duration, longestBegin: slice.begin, label: slice.label))
            return true
        }
        compact()
    }

    /// One sum per row and bucket, in order.
    private mutating func compact() {
        sums.sort { ($0.thread, $0.depth, $0.bucket) < ($1.thread, $1.depth, $1.bucket) }
        var kept: [Sum] = []
        kept.reserveCapacity(sums.count)
        for sum in sums {
            if let last = kept.last, last.thread == sum.thread, last.depth == sum.depth, last.bucket == sum.bucket {
                merge(sum, into: &kept[kept.count - 1])
            } else {
                kept.append(sum)
            }
        }
        sums = kept
    }

    /// Ends the stretch (counted by the caller): its sums made, its bucket coarsened to its budget, its records written.
    private mutating func closeStretch() {
        shelveRows()
        for key in threads.keys {
            for row in threads[key]!.rows.indices where threads[key]!.rows[row].count > 0 {
                sums.append(threads[key]!.rows[row])
                threads[key]!.rows[row].count = 0
            }
        }
        compact()
        let limit = budget(events: stretchEvents)
        while sums.count + slices.count > limit, shift < 63 { coarsen() }
        encodeStretch(to: &stretches)
        sums.removeAll(keepingCapacity: true)
        slices.removeAll(keepingCapacity: true)
        issues.removeAll()
        moreIssues = false
        stretchEvents = 0
        stretchChunks = 0
        // The next stretch starts finer: the trace may be quieter there.
        shift = max(0, shift - 2)
    }

    private func encodeStretch(to fields: inout IndexFieldWriter) {
        fields.put(stretchChunks)
        fields.put(shift)
        fields.put(sums.count)
        var previous: UInt64 = 0
        for sum in sums {
            fields.put(UInt64(sum.thread))
            fields.put(UInt64(UInt32(bitPattern: sum.depth &+ 1)))
            fields.put(Varint.zigzagDelta(sum.bucket, from: previous))
            previous = sum.bucket
            fields.put(sum.count)
            fields.put(sum.total)
            fields.put(sum.longest)
            fields.put(sum.longestBegin &- (sum.bucket << shift))
            fields.put(UInt64(sum.label))
        }
        fields.put(slices.count)
        previous = 0
        for slice in slices {
            fields.put(UInt64(slice.thread))
            fields.put(UInt64(UInt32(bitPattern: slice.depth &+ 1)))
            fields.put(Varint.zigzagDelta(slice.begin, from: previous))
            previous = slice.begin
            fields.put(slice.duration)
            fields.put(UInt64(slice.label))
        }
        fields.put(issues.count)
        fields.put(moreIssues)
        for issue in issues {
            fields.put(UInt64(issue.thread))
            fields.put(issue.time)
            fields.put(issue.kind)
            fields.put(issue.message)
        }
    }

    /// The section of what was read so far: the stretches, the one being gathered (closed as it
    /// stands), the labels, and `open` (what the builder holds open on each thread now, each
    /// thread's outermost first: ``TraceTimelineBuilder/open(in:threads:)``).
    func overview(open: [TraceTimelineBuilder.Open]) -> IndexedOverview {
        var copy = self
        if copy.stretchChunks > 0 {
            copy.closeStretch()
            copy.stretchCount += 1
        }
        var tail = IndexFieldWriter()
        tail.put(open.count)
        for slice in open {
            tail.put(UInt64(slice.thread))
            tail.put(slice.isFlush)
            tail.put(slice.begin)
            tail.put(UInt64(copy.label(name: slice.name, kind: slice.kind)))
        }
        var fields = IndexFieldWriter()
        fields.put(copy.labels.count)
        for label in copy.labels {
            fields.put(label.name)
            fields.put(label.kind)
        }
        fields.put(copy.stretchCount)
        fields.append(copy.stretches.bytes)
        fields.append(tail.bytes)
        return IndexedOverview(bytes: fields.bytes)
    }
}
