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
    /// The rows of the thread whose slice ended last (not in ``threads`` meanwhile).
    private var rowsThread: UInt32?
    private var rows: [Sum] = []
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
        let label = switch kind {
        case .run: label(ofNode: node)
        case .action: label(name: node == 0 ? action : "\(displayName(ofNode: node)).\(action)", kind: "action")
        case .flush: label(name: "flush", kind: "flush")
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
        if thread != rowsThread {
            if let rowsThread { threads[rowsThread] = ThreadState(rows: rows) }
            rows = threads.removeValue(forKey: thread)?.rows ?? []
            rowsThread = thread
        }
        let row = depth + 1
        if row >= rows.count {
            rows.append(contentsOf: repeatElement(Sum(thread: thread, depth: 0, bucket: 0, count: 0, total: 0,
                                                      longest: 0, longestBegin: 0, label: -1),
                                                  count: row + 1 - rows.count))
        }
        let bucket = begin >> shift
        if rows[row].count > 0, rows[row].bucket == bucket {
            rows[row].count += 1
            rows[row].total = rows[row].total.saturatingAdd(duration)
            if isLonger(duration, begin: begin, label: label, than: rows[row]) {
                rows[row].longest = duration
                rows[row].longestBegin = begin
                rows[row].label = label
            }
            return
        }
        if rows[row].count > 0 { sums.append(rows[row]) }
        rows[row] = Sum(thread: thread, depth: Int32(truncatingIfNeeded: depth), bucket: bucket, count: 1,
                        total: duration, longest: duration, longestBegin: begin, label: label)
    }

    /// Puts the rows of the thread last summed back with the others.
    private mutating func shelveRows() {
        if let rowsThread { threads[rowsThread] = ThreadState(rows: rows) }
        rowsThread = nil
        rows = []
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
