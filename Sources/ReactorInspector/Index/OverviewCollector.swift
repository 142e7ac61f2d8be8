import ReactorTraceFormat

/// Gathers the index's overview (``IndexedOverview``) from the batches of a pass, in order, in
/// a walk of its own over each batch's events: the runs, actions and flushes paired as the
/// importer pairs them (``SliceTracker``, ``FlushTracker``), each named as the importer names it
/// when it ends (``TraceTimelineBuilder/label(_:node:action:_:)``), without the importer.
///
/// The chunks are grouped in stretches of about ``eventsPerStretch`` events. Per stretch, each
/// slice that ended in it and is narrower than the stretch's bucket (a power of two of
/// nanoseconds) is summed into its row's bucket of its beginning; wider ones are kept as they
/// are; and its first ``TraceTimeline/markerLimit`` issues. A stretch's bucket is as fine as
/// ``eventsPerRecord`` allows: doubled while it keeps more records than that.
struct OverviewCollector {
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

    /// A run or action open on a thread.
    struct Frame {
        var isAction: Bool
        /// The run's computation or the action's store.
        var node: UInt64
        var begin: UInt64
        /// The action's name, in ``names``.
        var name: Int32
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

    /// One thread's open runs, actions and flushes and the sum being made per row (by depth + 1: flushes first).
    private struct ThreadState {
        var frames: [Frame] = []
        var flushes: [UInt64] = []
        var rows: [Sum] = []
    }

    /// A node's name and kind as created (nil: only referred to), for the nodes a creation or name event is about.
    private struct NodeName {
        var givenName = ""
        var created: TraceNodeKind?
    }

    private var threads: [UInt32: ThreadState] = [:]
    /// Each label's name and kind, and the label of each.
    private(set) var labels: [(name: String, kind: String)] = []
    private var labelOf: [String: Int32] = [:]
    /// Action names (the strings of action events), by position.
    private var names: [String] = []
    private var nameOf: [String: Int32] = [:]
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

    /// Takes a batch (never empty): one chunk.
    mutating func add(_ batch: borrowing TraceEventBatch) {
        var state = threads.removeValue(forKey: batch.thread) ?? ThreadState()
        let thread = batch.thread
        for event in batch.events {
            let time = event.timestamp
            switch event.record {
            case let .rerunBegan(computation, _):
                state.frames.append(Frame(isAction: false, node: computation, begin: time, name: -1))
            case let .rerunEnded(computation):
                // As the importer ends a run: the innermost open run of its computation, and what is open inside it.
                let count = state.frames.count
                if count > 0, !state.frames[count - 1].isAction, state.frames[count - 1].node == computation {
                    let frame = state.frames.removeLast()
                    ended(&state, thread: thread, depth: count - 1, begin: frame.begin, duration: time &- frame.begin,
                          label: label(ofNode: computation))
                } else if let found = state.frames.lastIndex(where: { !$0.isAction && $0.node == computation }) {
                    let begin = state.frames[found].begin
                    state.frames.removeSubrange(found...)
                    ended(&state, thread: thread, depth: found, begin: begin, duration: time >= begin ? time - begin : 0,
                          label: label(ofNode: computation))
                }
            case let .actionBegan(store, name, _):
                state.frames.append(Frame(isAction: true, node: store, begin: time, name: self.name(batch.string(name))))
            case let .actionEnded(store):
                if let found = state.frames.lastIndex(where: { $0.isAction && $0.node == store }) {
                    let frame = state.frames.remove(at: found)
                    ended(&state, thread: thread, depth: found, begin: frame.begin,
                          duration: time >= frame.begin ? time - frame.begin : 0, label: label(ofAction: frame))
                }
            case .flushBegan:
                state.flushes.append(time)
            case .flushEnded:
                if let begin = state.flushes.popLast() {
                    ended(&state, thread: thread, depth: TraceTimeline.flushDepth, begin: begin, duration: time &- begin,
                          label: label(name: "flush", kind: "flush"))
                }
            case let .issue(kind, _, message):
                if issues.count < TraceTimeline.markerLimit {
                    issues.append(Issue(thread: thread, time: time, kind: kind.budgetName, message: batch.string(message)))
                } else {
                    moreIssues = true
                }
            case let .nodeCreated(id, kind, name, _):
                let text = batch.string(name)
                var known = nodeNames[id] ?? NodeName()
                known.created = kind
                if !text.isEmpty || known.givenName.isEmpty { known.givenName = text }
                nodeNames[id] = known
                forgetLabel(ofNode: id)
            case let .nodeNamed(id, name, _):
                nodeNames[id, default: NodeName()].givenName = batch.string(name)
                forgetLabel(ofNode: id)
            default:
                break
            }
        }
        threads[thread] = state
        stretchEvents += batch.count
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

    /// A run, action or flush that ended, as the importer hands it on.
    @inline(__always)
    private mutating func ended(_ state: inout ThreadState, thread: UInt32, depth: Int, begin: UInt64, duration: UInt64,
                                label: Int32) {
        guard duration >> shift == 0 else {
            slices.append(Slice(thread: thread, depth: Int32(truncatingIfNeeded: depth), begin: begin, duration: duration,
                                label: label))
            return
        }
        let row = depth + 1
        if row >= state.rows.count {
            state.rows.append(contentsOf: repeatElement(Sum(thread: thread, depth: 0, bucket: 0, count: 0, total: 0,
                                                            longest: 0, longestBegin: 0, label: -1),
                                                        count: row + 1 - state.rows.count))
        }
        let bucket = begin >> shift
        if state.rows[row].count > 0, state.rows[row].bucket == bucket {
            state.rows[row].count += 1
            state.rows[row].total = state.rows[row].total.saturatingAdd(duration)
            if isLonger(duration, begin: begin, label: label, than: state.rows[row]) {
                state.rows[row].longest = duration
                state.rows[row].longestBegin = begin
                state.rows[row].label = label
            }
            return
        }
        if state.rows[row].count > 0 { sums.append(state.rows[row]) }
        state.rows[row] = Sum(thread: thread, depth: Int32(truncatingIfNeeded: depth), bucket: bucket, count: 1,
                              total: duration, longest: duration, longestBegin: begin, label: label)
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

    /// Position of the action name `text`.
    private mutating func name(_ text: String) -> Int32 {
        if let known = nameOf[text] { return known }
        let position = Int32(names.count)
        names.append(text)
        nameOf[text] = position
        return position
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

    /// The label of the action `frame` now (``TraceModelBuilder/actionName(_:)``): `Store.action`, the store's name as known now.
    private mutating func label(ofAction frame: Frame) -> Int32 {
        let name = names[Int(frame.name)]
        return label(name: frame.node == 0 ? name : "\(displayName(ofNode: frame.node)).\(name)", kind: "action")
    }

    // MARK: - Stretches

    /// Doubles the stretch's bucket: sums merge in pairs, and kept slices narrower than it become sums.
    private mutating func coarsen() {
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
    /// stands), the labels and what is open on each thread now.
    func overview() -> IndexedOverview {
        var copy = self
        if copy.stretchChunks > 0 {
            copy.closeStretch()
            copy.stretchCount += 1
        }
        // What the trace ends inside, per thread, outermost first (``TraceModelBuilder/openSlices(onThread:)``).
        var open = IndexFieldWriter()
        var openCount = 0
        for thread in copy.threads.keys.sorted() {
            let state = copy.threads[thread]!
            var frames: [(isFlush: Bool, begin: UInt64, label: Int32)] = []
            for frame in state.frames {
                frames.append((false, frame.begin, frame.isAction ? copy.label(ofAction: frame) : copy.label(ofNode: frame.node)))
            }
            for begin in state.flushes { frames.append((true, begin, copy.label(name: "flush", kind: "flush"))) }
            for (_, frame) in frames.enumerated().sorted(by: { ($0.element.begin, $0.offset) < ($1.element.begin, $1.offset) }) {
                open.put(UInt64(thread))
                open.put(frame.isFlush)
                open.put(frame.begin)
                open.put(UInt64(frame.label))
                openCount += 1
            }
        }
        var fields = IndexFieldWriter()
        fields.put(copy.labels.count)
        for label in copy.labels {
            fields.put(label.name)
            fields.put(label.kind)
        }
        fields.put(copy.stretchCount)
        fields.append(copy.stretches.bytes)
        fields.put(openCount)
        fields.append(open.bytes)
        return IndexedOverview(bytes: fields.bytes)
    }
}
