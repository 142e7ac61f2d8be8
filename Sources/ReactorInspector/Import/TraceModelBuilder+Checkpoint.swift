import ReactorTraceFormat

/// A builder's state between two chunks as bytes, and a builder restored from
/// them: what lets an index keep snapshots of a pass (docs/INSPECT.md, "The
/// index") so that a moment is a snapshot and the chunks after it.
///
/// A checkpoint is taken from a pass of ``checkpointOptions`` that applied
/// every event it read. A builder of options that ``resumes(_:)`` (values
/// tracked; no causes, explanation, history or lookahead), restored from it,
/// is in the state a pass of its own would have reached after the same chunks
/// whenever none of their events is later than its moment
/// (``TraceModelOptions/until``) and the N-th action of
/// ``TraceModelOptions/untilAction`` had not begun in them: before that, such a
/// pass applies every event, as the index's pass did. What those options never
/// read (causes, explanations, a history, the values a visitor is shown) is not kept.
extension TraceModelBuilder {
    /// The options of a pass that takes checkpoints: the plain model with each node's latest value.
    static var checkpointOptions: TraceModelOptions { TraceModelOptions(tracksValues: true) }

    /// Whether a builder of `options` can go on from a checkpoint.
    static func resumes(_ options: TraceModelOptions) -> Bool {
        options.tracksValues && !options.tracksCauses && options.explaining.isEmpty && options.valueHistoryOf == nil
            && options.lookahead == nil && options.issueLimit == TraceModelOptions().issueLimit
    }

    /// Whether a builder of `options` can go on from a checkpoint to follow one node's value
    /// history (`history NAME` from the index's positions): its nodes then enter the history
    /// as ``enterHistory(node:)`` says, and the history so far is kept across checkpoints.
    static func resumesHistory(_ options: TraceModelOptions) -> Bool {
        var rest = options
        rest.valueHistoryOf = nil
        return options.valueHistoryOf != nil && resumes(rest)
    }

    /// Whether a builder of `options` can go on from a checkpoint to print `replay`'s lines: it
    /// resumes but for its lookahead (``TraceModelOptions/lookahead``), which only gives nodes
    /// their final names from their first mention and writes their old → new in time order.
    static func resumesReplay(_ options: TraceModelOptions) -> Bool {
        var rest = options
        rest.lookahead = nil
        return options.lookahead != nil && resumes(rest)
    }

    /// After ``restore(from:)``: a node no event before the checkpoint named takes its final
    /// name from the lookahead, as the lookahead's pass gave it at its first mention; `named`
    /// holds the nodes a naming event before the checkpoint named (a name given stays, even an empty one).
    func adoptFinalNames(except named: Set<UInt64>) {
        guard let finalNames else { return }
        for position in 0..<nodes.count where nodes[position].givenName.isEmpty {
            let id = nodes[position].id
            if !named.contains(id), let name = finalNames[id] { nodes[position].givenName = name }
        }
    }

    /// Per thread (by its index in the trace), the node whose write waits for its `changed`
    /// event on that thread: a checkpoint keeps the write's old value as its own pass found it
    /// (in file order), not as a lookahead orders it, so such a `changed` read on from it needs
    /// the chunks before the checkpoint.
    var writesAwaitingAChange: [UInt32: UInt64] {
        var writes: [UInt32: UInt64] = [:]
        for (index, slot) in threadSlots {
            if let pending = pendingWrites[slot] { writes[index] = nodes[Int(pending.node)].id }
        }
        return writes
    }

    /// The latest value of node `id` (the write latest in time order of those read, ties
    /// in file order) and that write's time, if it had one.
    func latestValue(ofNode id: UInt64) -> (value: String, time: UInt64)? {
        guard let position = nodes.find(id), let value = nodes[Int(position)].value,
              let time = nodes[Int(position)].valueTimestamp else { return nil }
        return (value, time)
    }

    /// Node `id` (restored from a checkpoint) is in the value history, as a pass that met the
    /// event naming it as asked before the checkpoint would have it.
    func enterHistory(node id: UInt64) {
        guard let node = nodes.find(id) else { return }
        states[Int(node)].inHistory = true
    }

    /// The value history so far is dropped (a pass from the trace's start follows).
    func forgetHistory() { history = ValueHistoryTracker() }

    /// Whether the builder can take a checkpoint now: a pass of ``checkpointOptions`` numbering actions.
    var takesCheckpoints: Bool {
        Self.resumes(options) && options.until == nil && options.untilAction == nil && options.snapshotAt == nil
            && numbersActions
    }

    /// Writes the builder's state (see the extension's comment).
    func encodeCheckpoint(to fields: inout IndexFieldWriter) {
        precondition(takesCheckpoints && latestRead == 0 && !valuesAfterMoment, "a checkpoint of an index's pass")
        fields.put(nodes.count)
        for position in 0..<nodes.count {
            nodes[position].encode(to: &fields)
            let state = states[position]
            for root in [state.pendingRoot, state.changeRoot, state.runRoot, state.valueRoot] {
                fields.put(Varint.zigzagDelta(UInt64(bitPattern: Int64(root)), from: 0))
            }
        }
        let edgeTable = edges.table
        fields.put(edgeTable.count)
        for position in edgeTable.indices {
            let edge = edgeTable[position]
            fields.put(edge.computation); fields.put(edge.dependency); fields.put(edge.depends)
            fields.put(edge.invalidations); fields.put(edge.firstSeen); fields.put(edge.lastSeen)
            fields.put(edges.isHeld(position))
        }
        // Threads in slot order: a slot is where a thread's stack and flushes are.
        let threads = threadSlots.sorted { $0.value < $1.value }
        fields.put(threads.count)
        for (index, slot) in threads {
            fields.put(UInt64(index))
            let frames = slices.open(slot)
            fields.put(frames.count)
            for frame in frames {
                fields.put(frame.isAction); fields.put(Int(frame.node)); fields.put(Int(frame.action) + 1)
                fields.put(Int(frame.root) + 1); fields.put(frame.begin); fields.put(frame.nestedNanoseconds)
                fields.put(frame.firstRun)
            }
            let begins = flushes.open(onThread: slot)
            fields.put(begins.count)
            for begin in begins { fields.put(begin) }
            fields.put(optional: threadLast[slot])
            // A write whose value event ends a chunk has its change in the thread's next one.
            let pending = pendingWrites[slot]
            fields.put(optional: pending.map { UInt64($0.node) })
            if let pending {
                fields.put(optional: pending.previous)
                fields.put(pending.value)
            }
        }
        fields.put(actions.stats.count)
        for action in actions.stats { action.encode(to: &fields) }
        for kind in 0..<16 { fields.put(eventCounts[kind]) }
        fields.put(eventCount); fields.put(optional: firstTimestamp); fields.put(lastTimestamp)
        fields.put(flushes.stats.count); fields.put(flushes.stats.totalNanoseconds); fields.put(flushes.stats.maxNanoseconds)
        let issueCounts = issues.byKind.sorted { $0.key.rawValue < $1.key.rawValue }
        fields.put(issueCounts.count)
        for (kind, count) in issueCounts { fields.put(UInt64(kind.rawValue)); fields.put(count) }
        fields.put(issues.kept.count)
        for issue in issues.kept {
            fields.put(issue.timestamp); fields.put(UInt64(issue.kind.rawValue)); fields.put(issue.node)
            fields.put(issue.message)
        }
        fields.put(moments.begun); fields.put(moments.ended)
        fields.put(valueEvents)
    }

    /// Replaces the builder's state with the checkpoint `fields` holds (the builder's own
    /// options stay: its moment, its snapshot's). Throws ``TraceIndexError/damaged(_:)`` for
    /// bytes that are not a checkpoint, leaving the builder as a new one.
    func restore(from fields: inout IndexFieldReader) throws(TraceIndexError) {
        precondition(Self.resumes(options) || Self.resumesHistory(options) || Self.resumesReplay(options),
                     "a builder whose options resume from a checkpoint")
        reset()
        do throws(TraceIndexError) {
            try fill(from: &fields)
        } catch {
            reset()
            throw error
        }
    }

    /// A name event after the moment, of a chunk the pass did not read: applied as the pass
    /// would have applied it (to a node it knows).
    func learnName(_ id: UInt64, name: String, owner: UInt64) {
        guard let node = nodes.find(id) else { return }
        nodes.named(node, name: name, owner: nodes.find(owner) == nil ? 0 : owner)
    }

    /// The state of a new builder of these options.
    func reset() {
        nodes.deallocate()
        nodes = NodeTracker()
        states.deallocate()
        states = BuilderColumn()
        edges.deallocate()
        edges = EdgeTracker()
        slices.deallocate()
        slices = SliceTracker()
        threadSlots = [:]
        lastThread = nil
        actions = ActionTracker()
        eventCounts.update(repeating: 0, count: 16)
        eventCount = 0
        firstTimestamp = nil
        lastTimestamp = 0
        flushes = FlushTracker()
        issues = IssueTracker(limit: options.issueLimit)
        snapshot = nil
        snapshotDue = options.snapshotAt ?? .max
        applyUntil = options.until ?? .max
        moments = ActionMomentTracker(ordinal: options.untilAction)
        latestRead = 0
        valuesAfterMoment = false
        threadLast = [:]
        pendingWrites.removeAll()
        latestChange = nil
        valueEvents = 0
    }

    private func fill(from fields: inout IndexFieldReader) throws(TraceIndexError) {
        func signed() throws(TraceIndexError) -> Int32 {
            let value = Int64(bitPattern: Varint.undoZigzagDelta(try fields.next(), from: 0))
            guard let narrow = Int32(exactly: value) else { throw .damaged("a figure out of range") }
            return narrow
        }
        var roots: [Int32] = []
        for _ in 0..<(try fields.elements(eachAtLeast: TraceNode.leastEncodedBytes + 4)) {
            let node = try TraceNode.decode(from: &fields)
            guard nodes.find(node.id) == nil else { throw .damaged("a node twice") }
            let position = nodes.add(node.id, inferring: node.kind)
            nodes[Int(position)] = node
            var state = NodeState()
            state.pendingRoot = try signed()
            state.changeRoot = try signed()
            state.runRoot = try signed()
            state.valueRoot = try signed()
            roots += [state.pendingRoot == Self.notPending ? -1 : state.pendingRoot, state.changeRoot, state.runRoot,
                      state.valueRoot]
            states.append(state)
            edges.addNode()
        }
        let nodeCount = nodes.count
        for _ in 0..<(try fields.elements(eachAtLeast: 7)) {
            let record = TraceEdge(computation: try fields.next(), dependency: try fields.next(),
                                   depends: try fields.int(), invalidations: try fields.int(),
                                   firstSeen: try fields.next(), lastSeen: try fields.next())
            let held = try fields.bool()
            guard let computation = nodes.find(record.computation), let dependency = nodes.find(record.dependency)
            else { throw .damaged("an edge of an unknown node") }
            let before = edges.table.count
            edges.restore(record, computation: computation, dependency: dependency, held: held)
            guard edges.table.count == before + 1 else { throw .damaged("an edge twice") }
        }
        var frameActions: [Int32] = []
        let threads = try fields.elements(eachAtLeast: 5)
        for slot in 0..<threads {
            let index = UInt32(try fields.count(atMost: UInt64(UInt32.max)))
            guard threadSlots[index] == nil else { throw .damaged("a thread twice") }
            threadSlots[index] = slot
            slices.see(thread: slot)
            for _ in 0..<(try fields.elements(eachAtLeast: 7)) {
                let isAction = try fields.bool()
                let node = try fields.count(atMost: UInt64(max(0, nodeCount - 1)))
                guard node < nodeCount else { throw .damaged("a run of an unknown node") }
                let action = Int32(try fields.count(atMost: UInt64(Int32.max))) - 1
                let root = Int32(try fields.count(atMost: UInt64(Int32.max))) - 1
                let begin = try fields.next(), nested = try fields.next(), firstRun = try fields.bool()
                guard isAction == (action >= 0) else { throw .damaged("a frame of the wrong kind") }
                frameActions.append(action)
                roots.append(root)
                var frame = SliceTracker.Frame(isAction: isAction, node: Int32(node), action: action, root: root,
                                               cause: nil, begin: begin, firstRun: firstRun)
                frame.nestedNanoseconds = nested
                slices.push(frame, thread: slot)
            }
            for _ in 0..<(try fields.elements(eachAtLeast: 1)) { flushes.began(thread: slot, at: try fields.next()) }
            if let last = try fields.optional() { threadLast[slot] = last }
            if let node = try fields.optional() {
                guard node < nodeCount else { throw .damaged("a write of an unknown node") }
                pendingWrites[slot] = PendingWrite(node: Int32(node), previous: try fields.optionalString(),
                                                   value: try fields.string())
            }
        }
        var stats: [ActionStats] = []
        for _ in 0..<(try fields.elements(eachAtLeast: ActionStats.leastEncodedBytes)) {
            stats.append(try ActionStats.decode(from: &fields))
        }
        guard let restoredActions = ActionTracker(restoring: stats, storePosition: { self.nodes.find($0) }) else {
            throw .damaged("an action of an unknown store")
        }
        actions = restoredActions
        // Every position a root or frame names must be an action the checkpoint holds.
        guard (roots + frameActions).allSatisfy({ $0 >= -1 && Int($0) < stats.count }) else {
            throw .damaged("an unknown action")
        }
        for kind in 0..<16 { eventCounts[kind] = try fields.int() }
        eventCount = try fields.int()
        firstTimestamp = try fields.optional()
        lastTimestamp = try fields.next()
        var flushStats = FlushStats()
        flushStats.count = try fields.int()
        flushStats.totalNanoseconds = try fields.next()
        flushStats.maxNanoseconds = try fields.next()
        flushes = FlushTracker(openBegins: (0..<threads).map { flushes.open(onThread: $0) }, stats: flushStats)
        var issueCounts: [TraceIssueKind: Int] = [:]
        for _ in 0..<(try fields.elements(eachAtLeast: 2)) {
            issueCounts[try fields.kind(TraceIssueKind.self)] = try fields.int()
        }
        var kept: [TraceIssueRecord] = []
        for _ in 0..<(try fields.elements(eachAtLeast: 5)) {
            kept.append(TraceIssueRecord(timestamp: try fields.next(), kind: try fields.kind(TraceIssueKind.self),
                                         node: try fields.next(), message: try fields.string()))
        }
        guard kept.count <= options.issueLimit else { throw .damaged("more issues kept than asked for") }
        issues = IssueTracker(limit: options.issueLimit, byKind: issueCounts, kept: kept)
        let begun = try fields.int(), ended = try fields.count(atMost: UInt64(begun))
        if let ordinal = options.untilAction, begun >= max(1, ordinal) {
            throw .damaged("a checkpoint after the action asked for began")
        }
        moments.resume(begun: begun, ended: ended)
        valueEvents = try fields.int()
    }
}
