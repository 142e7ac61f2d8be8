import ReactorTraceFormat

/// The one importer: builds a ``TraceModel`` from trace events in one
/// streaming pass. Feed it every event in order with ``consume(_:)``, then
/// call ``finish()``. Views that read events one by one pass an
/// ``ImportedEventVisitor`` (``consume(_:visiting:)``) and get each event as
/// the importer resolved it (``ImportedEvent``), during the same pass.
///
/// The builder dispatches each event to single-purpose trackers, the way
/// Perfetto's trace processor builds its tables: the node table
/// (``NodeTracker``), the edges (``EdgeTracker``), open runs and actions per
/// thread (``SliceTracker``), actions (``ActionTracker``), flushes
/// (``FlushTracker``), issues (``IssueTracker``), the value history
/// (``ValueHistoryTracker``), causal chains while it tracks causes
/// (``CauseTracker``); it keeps each node's root action (of its pending
/// invalidation, latest change and run), which every event touches.
///
/// It follows Tracker's semantics to know the graph at every moment: a
/// `depend` adds an edge, an invalidation drops all of the computation's edges
/// (its rerun re-collects them). Memory grows with nodes and edges, never with
/// events: durations go to bounded histograms, causes to one pointer per node.
///
/// A builder is used from one thread at a time (it is not `Sendable`); the
/// model it returns is.
public final class TraceModelBuilder {
    /// What the builder records beyond the plain model.
    public let options: TraceModelOptions

    // One builder, one thread: the stored state is touched several times per
    // event, so it opts out of dynamic exclusivity checks.
    // Columns, not arrays: updated in place without uniqueness checks (freed in deinit).
    @exclusivity(unchecked) var nodes = NodeTracker()
    /// Per node position, what the causes and values need beside the node table.
    @exclusivity(unchecked) var states = BuilderColumn<NodeState>()
    @exclusivity(unchecked) var edges = EdgeTracker()
    @exclusivity(unchecked) var slices = SliceTracker()
    /// The recording threads' indexes as the file gives them, each with its
    /// slot in the per-thread trackers (in order of first batch): a hostile
    /// index such as 2³² − 1 costs one entry, not an array that long.
    @exclusivity(unchecked) var threadSlots: [UInt32: Int] = [:]
    /// The latest batch's thread and slot: consecutive batches mostly share one.
    @exclusivity(unchecked) var lastThread: (index: UInt32, slot: Int)?
    @exclusivity(unchecked) var actions = ActionTracker()
    /// Events by kind code: a fixed block, no array bookkeeping on every event.
    let eventCounts = UnsafeMutablePointer<Int>.allocate(capacity: 16)
    /// Where a single event is lent as a batch of one (plain data: nothing to deinitialize).
    private let single = UnsafeMutablePointer<PlainTraceEvent>.allocate(capacity: 1)
    @exclusivity(unchecked) var eventCount = 0
    @exclusivity(unchecked) var firstTimestamp: UInt64?
    @exclusivity(unchecked) var lastTimestamp: UInt64 = 0
    @exclusivity(unchecked) var flushes = FlushTracker()
    @exclusivity(unchecked) var issues: IssueTracker
    @exclusivity(unchecked) var snapshot: TraceSnapshot?
    /// `options.snapshotAt` until the snapshot is taken, then never: one comparison per event.
    @exclusivity(unchecked) var snapshotDue = UInt64.max
    /// Whether causal chains are built: ``TraceModelOptions/tracksCauses``.
    let tracksCauses: Bool
    @exclusivity(unchecked) var causes = CauseTracker()
    @exclusivity(unchecked) var collectors: [WhyCollector] = []
    private var collectorByName: [String: Int32] = [:]
    /// Reading chunks alone for `why`: the nodes explained from their first creation or naming event on.
    var aloneTargets: Set<UInt64>?
    /// Every computation's explanation, when ``TraceModelOptions/explainsEverything``.
    let everything: ExplanationsCollector?
    /// `options.until` or, once known, the moment of `options.untilAction`; else never:
    /// events after it are read but not applied.
    @exclusivity(unchecked) var applyUntil: UInt64
    /// Outermost actions numbered, and `options.untilAction`'s moment.
    @exclusivity(unchecked) var moments: ActionMomentTracker
    /// Whether outermost actions are numbered on the plain path (for `options.untilAction`).
    let numbersActions: Bool
    /// The latest timestamp read, applied or not.
    @exclusivity(unchecked) var latestRead: UInt64 = 0
    /// Whether value events came after the moment (the trace has values all the same).
    @exclusivity(unchecked) var valuesAfterMoment = false
    /// Each node's final name, from ``TraceModelOptions/lookahead``.
    let finalNames: [UInt64: String]?
    /// Per thread (as the slice tracker numbers them), its latest event's time: where a run
    /// the trace does not end stops being known (docs/METRICS.md, "Unfinished runs").
    @exclusivity(unchecked) var threadLast: [Int: UInt64] = [:]
    /// Per thread slot, the write whose value event was read and whose change was not yet:
    /// a write's change follows its value event on its thread, but another thread's chunk,
    /// which may write the same node, can come between them in the file.
    @exclusivity(unchecked) var pendingWrites = ThreadSlotTable<PendingWrite>()
    /// The old → new of the change just read, when it carries its write's value.
    @exclusivity(unchecked) var latestChange: PendingWrite?
    /// Value events met so far, in file order: the position ``TraceModelOptions/lookahead`` is indexed by.
    @exclusivity(unchecked) var valueEvents = 0
    private let tracksValues: Bool
    /// The value history asked for.
    @exclusivity(unchecked) var history = ValueHistoryTracker()
    /// An index's value rows, told every value and display name this builder applies (``ValueRowsCollector``).
    var valueRows: ValueRowsCollector?
    /// Whether the builder reads single chunks from the index's light points
    /// (``TraceModelBuilder/readLightPoints(kinds:actions:)``): a node it meets starts with unknown roots.
    var readsLightPoints = false
    /// The string table of the batch being handed to a visitor.
    private var batchStrings: [String] = []

    /// Creates a builder.
    public convenience init(options: TraceModelOptions = TraceModelOptions()) {
        self.init(options: options, numbersActions: options.untilAction != nil)
    }

    /// Creates a builder that numbers outermost actions even without ``TraceModelOptions/untilAction``
    /// when `numbersActions` (an index's pass: its snapshots say how many had begun).
    init(options: TraceModelOptions, numbersActions: Bool) {
        self.options = options
        tracksCauses = options.tracksCauses
        eventCounts.initialize(repeating: 0, count: 16)
        snapshotDue = options.snapshotAt ?? .max
        applyUntil = options.until ?? .max
        moments = ActionMomentTracker(ordinal: options.untilAction)
        self.numbersActions = numbersActions || options.untilAction != nil
        tracksValues = options.tracksValues
        finalNames = options.lookahead?.finalNames
        issues = IssueTracker(limit: options.issueLimit)
        everything = options.explainsEverything ? ExplanationsCollector(limit: options.whyEntryLimit) : nil
        for target in options.explaining.sorted() {
            collectorByName[target] = Int32(collectors.count)
            collectors.append(WhyCollector(target: target))
        }
    }

    deinit {
        eventCounts.deallocate()
        single.deallocate()
        nodes.deallocate()
        states.deallocate()
        edges.deallocate()
        slices.deallocate()
    }

    /// How many events were consumed so far.
    public var consumedEvents: Int { eventCount }

    /// Consumes the next event of the trace.
    public func consume(_ event: consuming TraceEvent) {
        var none = NoImportedEventVisitor()
        consume(event, visiting: &none, emits: false)
    }

    /// Consumes the next event of the trace and hands it, resolved, to `visitor`.
    public func consume(_ event: consuming TraceEvent, visiting visitor: inout some ImportedEventVisitor) {
        consume(event, visiting: &visitor, emits: true)
    }

    /// Consumes the plain `event` of a batch whose strings are `strings`
    /// (``TraceEventBatch/strings``) and hands it, resolved, to `visitor`.
    public func consume(_ event: PlainTraceEvent, strings: [String],
                        visiting visitor: inout some ImportedEventVisitor) {
        consumeOne(event, strings: strings, visiting: &visitor, emits: true)
    }

    /// One event as a batch of one, in the builder's one-event buffer: a single code path for both.
    private func consumeOne<Visitor: ImportedEventVisitor>(_ event: PlainTraceEvent, strings: [String],
                                                             visiting visitor: inout Visitor, emits: Bool) {
        single.initialize(to: event)
        let batch = TraceEventBatch(events: UnsafeBufferPointer(start: single, count: 1), strings: strings,
                                    thread: event.thread)
        var unmarked = NoBatchEventMarker()
        consume(batch, visiting: &visitor, marking: &unmarked, emits: emits)
    }

    private func consume<Visitor: ImportedEventVisitor>(_ event: consuming TraceEvent, visiting visitor: inout Visitor,
                                                          emits: Bool) {
        var strings: [String] = []
        let plain = PlainTraceEvent(timestamp: event.timestamp, thread: event.thread,
                                    record: PlainTraceRecord(event.record, strings: &strings))
        consumeOne(plain, strings: strings, visiting: &visitor, emits: emits)
    }

    /// Consumes a batch of events as ``TraceReader/nextBatch(_:)`` lends it:
    /// the same as consuming each of its events in order, without building
    /// a ``TraceEvent`` (and its strings) for each.
    public func consume(_ batch: borrowing TraceEventBatch) {
        var none = NoImportedEventVisitor()
        var unmarked = NoBatchEventMarker()
        consume(batch, visiting: &none, marking: &unmarked, emits: false)
    }

    /// Consumes a batch as ``consume(_:)`` does and tells `marker` the node ids of its events,
    /// in the same walk. For a builder that applies every event it reads (no moment asked for).
    func consume(_ batch: borrowing TraceEventBatch, marking marker: inout some BatchEventMarker) {
        precondition(options.until == nil && options.untilAction == nil, "a builder that applies every event")
        var none = NoImportedEventVisitor()
        consume(batch, visiting: &none, marking: &marker, emits: false)
    }

    /// Consumes a batch as ``consume(_:visiting:)`` does and tells `marker` what its events name
    /// (``consume(_:marking:)``), in the same walk. For a builder that applies every event it reads.
    func consume(_ batch: borrowing TraceEventBatch, visiting visitor: inout some ImportedEventVisitor,
                 marking marker: inout some BatchEventMarker) {
        precondition(options.until == nil && options.untilAction == nil, "a builder that applies every event")
        consume(batch, visiting: &visitor, marking: &marker, emits: true)
    }

    /// Consumes a batch of events and hands each one it applies, resolved, to
    /// `visitor` (events after ``TraceModelOptions/until`` are read, not applied
    /// and not handed on).
    public func consume(_ batch: borrowing TraceEventBatch, visiting visitor: inout some ImportedEventVisitor) {
        var unmarked = NoBatchEventMarker()
        consume(batch, visiting: &visitor, marking: &unmarked, emits: true)
    }

    /// The one pass. `emits` is false on the plain path, whose visitor does
    /// nothing: inlined into each entry point, so the plain path folds every
    /// `if emits` away instead of testing it on every event; likewise a `marker` that marks nothing.
    @inline(__always)
    private func consume<Visitor: ImportedEventVisitor, Marker: BatchEventMarker>(
        _ batch: borrowing TraceEventBatch, visiting visitor: inout Visitor, marking marker: inout Marker, emits: Bool
    ) {
        let events = batch.events
        guard !events.isEmpty else { return }
        marker.began()
        defer { marker.ended(thread: batch.thread) }
        let thread = slot(ofThread: batch.thread)
        if emits { batchStrings = batch.strings }
        // Per batch, not per event: nothing below reads the count or the latest time.
        if eventCount == 0 { firstTimestamp = events[0].timestamp }
        eventCount += events.count
        // A thread's times never decrease: its batch's last event is its latest.
        threadLast[thread] = max(threadLast[thread] ?? 0, events[events.count - 1].timestamp)
        var latest = lastTimestamp
        defer { lastTimestamp = latest }
        for position in events.indices {
            let time = events[position].timestamp
            if moments.watches(thread: thread), let moment = moments.watch(events[position].record, at: time) {
                applyUntil = moment
            }
            if time > applyUntil {
                // Past the moment asked for: read (for the trace's end), not applied.
                if time > latestRead { latestRead = time }
                switch events[position].record {
                case .value:
                    valuesAfterMoment = true
                    valueEvents += 1
                case let .nodeNamed(id, name, owner):
                    // A node's name is its final name at every moment (docs/METRICS.md, "name"):
                    // an `@Reactive` named on first access after the moment keeps that name.
                    if let node = nodes.find(id) {
                        nodes.named(node, name: batch.string(name), owner: nodes.find(owner) == nil ? 0 : owner)
                    }
                default: break
                }
                continue
            }
            marker.at(time)
            if time > latest { latest = time }
            if time > snapshotDue { takeSnapshot(at: snapshotDue) }
            // Plain data: switching on the record copies bytes, nothing is retained.
            switch events[position].record {
            case let .depend(computation, dependency):
                marker.mentioned(computation)
                marker.mentioned(dependency)
                eventCounts[Int(TraceEventKind.depend.rawValue)] += 1
                let (reader, read) = depend(computation, on: dependency, at: time)
                if emits { emit(events[position], node: reader, related: read, to: &visitor) }
            case let .invalidated(computation, cause, source):
                marker.mentioned(computation)
                marker.mentioned(source)
                eventCounts[Int(TraceEventKind.invalidated.rawValue)] += 1
                let node = invalidated(computation, cause: cause, source: source, thread: thread, at: time)
                if emits {
                    let related = source == 0 ? -1 : nodes.find(source) ?? -1
                    emit(events[position], node: node, related: related, to: &visitor)
                }
            case let .rerunBegan(computation, firstRun):
                marker.mentioned(computation)
                eventCounts[Int(TraceEventKind.rerunBegan.rawValue)] += 1
                let node = runBegan(computation, firstRun: firstRun, thread: thread, at: time)
                if emits {
                    let depth = slices.depth(thread) - 1
                    let slice = ImportedSlice(kind: .run, begin: time, durationNanoseconds: 0, selfNanoseconds: 0,
                                              firstRun: firstRun, outermost: false, ends: false)
                    emit(events[position], node: node, depth: depth, slice: slice,
                         root: slices.innermostRoot(thread), to: &visitor)
                }
            case let .rerunEnded(computation):
                marker.mentioned(computation)
                eventCounts[Int(TraceEventKind.rerunEnded.rawValue)] += 1
                let ended = runEnded(computation, thread: thread, at: time)
                if Marker.marksSlices, let ended {
                    marker.sliceEnded(thread: batch.thread, kind: .run, begin: ended.slice.begin,
                                      duration: ended.slice.durationNanoseconds, depth: ended.depth, node: computation,
                                      action: "")
                }
                if emits {
                    let node = nodes.find(computation) ?? -1
                    if let ended {
                        emit(events[position], node: node, depth: ended.depth, slice: ended.slice,
                             endedInside: ended.endedInside, root: ended.root, to: &visitor)
                    } else {
                        emit(events[position], node: node, depth: max(0, slices.depth(thread) - 1),
                             to: &visitor)
                    }
                }
            case let .changed(dependency):
                marker.mentioned(dependency)
                eventCounts[Int(TraceEventKind.changed.rawValue)] += 1
                let (node, carriesValue) = changed(dependency, thread: thread)
                if emits {
                    emit(events[position], node: node, root: states[Int(node)].changeRoot,
                         value: carriesValue ? .changed : .none, to: &visitor)
                }
            case .flushBegan:
                eventCounts[Int(TraceEventKind.flushBegan.rawValue)] += 1
                flushes.began(thread: thread, at: time)
                if emits {
                    let slice = ImportedSlice(kind: .flush, begin: time, durationNanoseconds: 0, selfNanoseconds: 0,
                                              firstRun: false, outermost: false, ends: false)
                    emit(events[position], node: -1, slice: slice, to: &visitor)
                }
            case .flushEnded:
                eventCounts[Int(TraceEventKind.flushEnded.rawValue)] += 1
                let begin = flushes.ended(thread: thread, at: time)
                if Marker.marksSlices, let begin {
                    marker.sliceEnded(thread: batch.thread, kind: .flush, begin: begin, duration: time &- begin,
                                      depth: TraceTimeline.flushDepth, node: 0, action: "")
                }
                if emits {
                    let slice = begin.map {
                        ImportedSlice(kind: .flush, begin: $0, durationNanoseconds: time &- $0,
                                      selfNanoseconds: time &- $0, firstRun: false, outermost: false, ends: true)
                    }
                    emit(events[position], node: -1, slice: slice, to: &visitor)
                }
            case let .nodeCreated(id, kind, name, parent):
                let text = batch.string(name)
                marker.created(id, kind: kind, name: text, parent: parent)
                eventCounts[Int(TraceEventKind.nodeCreated.rawValue)] += 1
                let node = created(id, kind: kind, name: text, parent: parent, at: time)
                if emits {
                    emit(events[position], node: node, related: parent == 0 ? -1 : nodes.find(parent) ?? -1,
                         to: &visitor)
                }
            case let .nodeNamed(id, name, owner):
                let text = batch.string(name)
                marker.named(id, name: text, owner: owner)
                eventCounts[Int(TraceEventKind.nodeNamed.rawValue)] += 1
                let node = named(id, name: text, owner: owner)
                if emits {
                    emit(events[position], node: node, related: owner == 0 ? -1 : nodes.find(owner) ?? -1,
                         to: &visitor)
                }
            case let .nodeStopped(id):
                marker.mentioned(id)
                eventCounts[Int(TraceEventKind.nodeStopped.rawValue)] += 1
                let node = stopped(id, at: time)
                if emits { emit(events[position], node: node, to: &visitor) }
            case let .actionBegan(store, name, arguments):
                marker.mentioned(store)
                eventCounts[Int(TraceEventKind.actionBegan.rawValue)] += 1
                let outermost = (emits || numbersActions) && !slices.hasOpenAction(thread)
                if outermost { _ = moments.began(store: store, name: batch.string(name), thread: thread, at: time) }
                actionBegan(store, name: batch.string(name), arguments: batch.string(arguments), thread: thread,
                            at: time)
                if emits {
                    let depth = slices.depth(thread) - 1
                    let frame = slices.frame(thread, at: depth)
                    let slice = ImportedSlice(kind: .action, begin: time, durationNanoseconds: 0, selfNanoseconds: 0,
                                              firstRun: false, outermost: outermost, ends: false)
                    emit(events[position], node: frame.node, depth: depth, slice: slice, action: frame.action,
                         root: frame.root, to: &visitor)
                }
            case let .actionEnded(store):
                marker.mentioned(store)
                eventCounts[Int(TraceEventKind.actionEnded.rawValue)] += 1
                let ended = actionEnded(store, thread: thread, at: time)
                if Marker.marksSlices, let ended {
                    marker.sliceEnded(thread: batch.thread, kind: .action, begin: ended.slice.begin,
                                      duration: ended.slice.durationNanoseconds, depth: ended.depth, node: store,
                                      action: actions.stats[Int(ended.action)].name)
                }
                if let ended, ended.slice.outermost { moments.ended(thread: thread, at: time) }
                if emits {
                    let node = nodes.find(store) ?? -1
                    if let ended {
                        emit(events[position], node: node, depth: ended.depth, slice: ended.slice,
                             action: ended.action, root: ended.root, to: &visitor)
                    } else {
                        emit(events[position], node: node, depth: max(0, slices.depth(thread) - 1),
                             to: &visitor)
                    }
                }
            case let .issue(kind, node, message):
                marker.mentioned(node)
                eventCounts[Int(TraceEventKind.issue.rawValue)] += 1
                issue(kind, node: node, message: batch.string(message), at: time)
                if Marker.marksSlices {
                    marker.issued(thread: batch.thread, time: time, kind: kind, message: batch.string(message))
                }
                if emits { emit(events[position], node: node == 0 ? -1 : nodes.find(node) ?? -1, to: &visitor) }
            case let .value(node, value):
                marker.valued(node)
                eventCounts[Int(TraceEventKind.value.rawValue)] += 1
                if tracksValues {
                    let role = took(batch.string(value), node: node, thread: thread, at: time)
                    if emits { emit(events[position], node: nodes.find(node) ?? -1, value: role, to: &visitor) }
                } else if emits {
                    emit(events[position], node: nodes.find(node) ?? -1, to: &visitor)
                }
            case let .site(id, site, isActionCall):
                marker.mentioned(id)
                eventCounts[Int(TraceEventKind.site.rawValue)] += 1
                if isActionCall {
                    if tracksCauses { actionSited(site: batch.string(site), thread: thread) }
                } else {
                    sited(id, site: batch.string(site))
                }
                if emits { emit(events[position], node: nodes.find(id) ?? -1, to: &visitor) }
            }
        }
    }

    /// Hands `event` on, resolved; `depth` defaults to the runs and actions open on its thread.
    @inline(never)
    private func emit<Visitor: ImportedEventVisitor>(_ event: PlainTraceEvent, node: Int32, related: Int32 = -1,
                                                     depth: Int? = nil, slice: ImportedSlice? = nil,
                                                     endedInside: Int = 0, action: Int32 = -1, root: Int32? = nil,
                                                     value: ImportedValue = .none, to visitor: inout Visitor) {
        let thread = slot(ofThread: event.thread)
        let imported = ImportedEvent(time: event.timestamp, thread: event.thread, record: event.record, node: node,
                                     relatedNode: related, depth: depth ?? slices.depth(thread),
                                     slice: slice, endedInside: endedInside, action: action, rootAction: root ?? enclosingRoot(thread),
                                     value: value)
        visitor.visit(imported, from: self)
    }

    /// The node table, with each run the trace began and did not end counted as lasting until
    /// its thread's last event (docs/METRICS.md, "Unfinished runs"), as the exports draw it. The
    /// builder's own state is left as it is: a trace still being read may end those runs yet.
    /// A model as of a moment (`until`, `action:N`) leaves them out: they go on past it.
    private func nodesWithUnfinishedRuns() -> [TraceNode] {
        var table = nodes.table.array
        guard options.until == nil, options.untilAction == nil else { return table }
        for (thread, last) in threadLast {
            for ended in SliceTracker.ending(slices.open(thread)[...], at: last).ended where !ended.frame.isAction {
                table[Int(ended.frame.node)].runs.ended(duration: ended.duration, exclusive: ended.exclusive,
                                                        firstRun: ended.frame.firstRun)
            }
        }
        return table
    }

    /// Finishes the pass and returns the model.
    public func finish() -> TraceModel {
        if snapshot == nil, let at = options.snapshotAt ?? (try? moments.moment?.get())?.ended {
            takeSnapshot(at: at)
        }
        let finalEdges = edges.held
        let finishedActions = actions.finished { nodes.name(of: $0) }
        var byKind: [TraceEventKind: Int] = [:]
        for kind in TraceEventKind.allCases where eventCounts[Int(kind.rawValue)] > 0 {
            byKind[kind] = eventCounts[Int(kind.rawValue)]
        }
        var explanations: [String: WhyReport] = [:]
        for collector in collectors { explanations[collector.target] = report(for: collector) }
        let unfinished = slices.unfinishedRuns
        let valueHistory = history.finished(nodeID: { nodes[Int($0)].id }, actionName: actionName)
        var model = TraceModel(nodes: nodesWithUnfinishedRuns(), edges: edges.table.array, finalEdges: finalEdges, snapshot: snapshot, actions: finishedActions,
                          eventCount: eventCount, eventsByKind: byKind, firstTimestamp: firstTimestamp ?? 0,
                          lastTimestamp: lastTimestamp, threadCount: threadSlots.count, flushes: flushes.stats,
                          issueCounts: issues.byKind, issues: issues.kept, explanations: explanations,
                          unfinishedRuns: unfinished)
        model.valueHistory = valueHistory
        model.unfinishedFlushes = flushes.unfinished
        model.threadIndexes = threadIndexes
        model.latestTimestampRead = max(latestRead, lastTimestamp)
        model.hasValues = valuesAfterMoment || eventCounts[Int(TraceEventKind.value.rawValue)] > 0
        model.pendingReruns = Set((0..<states.count).lazy.filter { self.states[$0].pendingRoot != Self.notPending }
            .map { self.nodes[$0].id })
        return model
    }
}

// MARK: - What visitors read

extension TraceModelBuilder {
    /// How many nodes the importer knows so far (positions are `0..<nodeCount`).
    public var nodeCount: Int { nodes.count }

    /// The position of node `id` in the importer's tables, if the trace mentioned it.
    public func position(ofNode id: UInt64) -> Int32? { nodes.find(id) }

    /// The id of the node at `position`.
    public func nodeID(_ position: Int32) -> UInt64 { nodes[Int(position)].id }

    /// The name every view shows for the node at `position` (``TraceNode/name``:
    /// the one rule for unnamed nodes).
    public func name(ofNode position: Int32) -> String { nodes[Int(position)].name }

    /// The node's kind as the trace created it, or nil for a node the trace
    /// only refers to (its kind is inferred).
    public func createdKind(ofNode position: Int32) -> TraceNodeKind? {
        nodes[Int(position)].createdAt == nil ? nil : nodes[Int(position)].kind
    }

    /// The node's kind, as created or as inferred from how the trace uses it.
    public func kind(ofNode position: Int32) -> TraceNodeKind { nodes[Int(position)].kind }

    /// The node's runs so far.
    public func runs(ofNode position: Int32) -> RunStats { nodes[Int(position)].runs }

    /// The node's value now (with values tracked), or nil.
    public func value(ofNode position: Int32) -> String? { nodes[Int(position)].value }

    /// The value before the latest write's (with values tracked), or nil: in time order with
    /// ``TraceModelOptions/lookahead``, else the value the node held when the write was read.
    public func previousValue(ofNode position: Int32) -> String? { states[Int(position)].previousValue }

    /// For the change just read (an event whose value is ``ImportedValue/changed``): the value
    /// its write recorded and the one before it. Its own write's, though another thread's write
    /// of the node may have been read between that write's value event and this change.
    public var changedValues: (previous: String?, value: String)? {
        latestChange.map { ($0.previous, $0.value) }
    }

    /// `Store.action` for the action at `position` (``ImportedEvent/action``),
    /// with the store's name as known now (the action's name alone without a store).
    public func actionName(_ position: Int32) -> String {
        let stats = actions[position]
        guard stats.store != 0 else { return stats.name }
        let storeName = nodes.name(of: stats.store) ?? stats.storeName
        return storeName.isEmpty ? stats.name : "\(storeName).\(stats.name)"
    }

    /// Outermost actions begun so far: the N of `action:N` of the latest (an
    /// action begun inside another on its thread is part of it). Counted while
    /// visiting (``consume(_:visiting:)``) or resolving ``TraceModelOptions/untilAction``.
    public var outermostActionsBegun: Int { moments.begun }
    /// Outermost actions ended so far (what `action:N` beyond the trace's actions says it has).
    public var outermostActionsEnded: Int { moments.ended }

    /// For ``TraceModelOptions/untilAction``: the N-th action with the moment
    /// it names (its ``ActionEnd/ended``), or why the trace has none (call
    /// after the last event); nil when no action was asked for.
    public var actionMoment: Result<ActionEnd, TraceMomentError>? { moments.moment }

    /// The moment of ``TraceModelOptions/untilAction`` once an event read has
    /// decided it, else nil: from then on only events at or before it are applied.
    var decidedActionMoment: UInt64? { moments.decidedMoment }

    /// How many recording threads the importer has seen.
    public var threadCount: Int { threadSlots.count }

    /// The indexes of the recording threads seen, in ascending order.
    public var threadIndexes: [UInt32] { threadSlots.keys.sorted() }

    /// The per-thread trackers' slot of the thread the file numbers `index`,
    /// made on its first batch.
    @inline(__always)
    func slot(ofThread index: UInt32) -> Int {
        if let lastThread, lastThread.index == index { return lastThread.slot }
        let slot: Int
        if let known = threadSlots[index] {
            slot = known
        } else {
            slot = threadSlots.count
            threadSlots[index] = slot
            slices.see(thread: slot)
        }
        lastThread = (index, slot)
        return slot
    }

    /// The runs, actions and flushes still open on `thread`, outermost first
    /// (at the end of a trace: those it ended inside).
    public func openSlices(onThread index: UInt32) -> [(slice: ImportedSlice, node: Int32, action: Int32)] {
        guard let thread = threadSlots[index] else { return [] }
        var open: [(slice: ImportedSlice, node: Int32, action: Int32)] = []
        var outermostAction = true
        for frame in slices.open(thread) {
            let slice = ImportedSlice(kind: frame.isAction ? .action : .run, begin: frame.begin, durationNanoseconds: 0,
                                      selfNanoseconds: 0, firstRun: frame.firstRun,
                                      outermost: frame.isAction && outermostAction, ends: false)
            if frame.isAction { outermostAction = false }
            open.append((slice, frame.node, frame.isAction ? frame.action : -1))
        }
        for begin in flushes.open(onThread: thread) {
            open.append((ImportedSlice(kind: .flush, begin: begin, durationNanoseconds: 0, selfNanoseconds: 0,
                                       firstRun: false, outermost: false, ends: false), -1, -1))
        }
        // Flushes and runs nest in time: the earlier began outside.
        return open.enumerated().sorted { ($0.element.slice.begin, $0.offset) < ($1.element.slice.begin, $1.offset) }
            .map(\.element)
    }

    /// The string `id` of the event being visited stands for.
    public func string(_ id: TraceStringID) -> String { batchStrings[Int(id.index)] }

    /// The causal chain of the run or action the visited event begins or ends,
    /// while the importer tracks causes (``TraceModelOptions/tracksCauses``);
    /// nil otherwise, and for other events. A call's own chain ends in its
    /// ``CauseLink/Step/action(_:)`` step.
    func cause(ofSliceIn event: ImportedEvent) -> CauseLink? {
        guard tracksCauses, let slice = event.slice, slice.kind != .flush else { return nil }
        guard !slice.ends else { return causes.lastEnded }
        // The event is the one being visited: its thread has a slot, mostly the latest batch's.
        return slices.innermostCause(slot(ofThread: event.thread))
    }
}

// MARK: - Per-node and per-thread state

extension TraceModelBuilder {
    /// A ``NodeState/pendingRoot`` that says no invalidation came since the node's last run.
    static let notPending = Int32.min

    /// The action at the root of a pending invalidation `pending` (-1 when none is pending);
    /// ``unknownRoot`` stays unknown.
    @inline(__always)
    static func cause(pending: Int32) -> Int32 { pending == notPending ? -1 : pending }

    /// What the builder tracks per node beside the node table: causes and values.
    struct NodeState {
        /// The action at the root of the pending invalidation, last change, last run (-1: none;
        /// ``TraceModelBuilder/notPending``: not invalidated since its last run).
        var pendingRoot: Int32 = TraceModelBuilder.notPending
        var changeRoot: Int32 = -1
        var runRoot: Int32 = -1
        /// The explanation collecting this node's runs, or -1.
        var collector: Int32 = -1
        /// The action at the root of the write that set the node's current value, or -1.
        var valueRoot: Int32 = -1
        /// Whether the node's values go to the value history.
        var inHistory = false
        /// The value before the current one.
        var previousValue: String?
    }

    /// A write's value and the one before it, from its value event, for its change.
    struct PendingWrite {
        var node: Int32
        var previous: String?
        var value: String
    }

    /// A run or action just ended, for the event handed on.
    struct EndedSlice {
        var slice: ImportedSlice
        /// How many runs and actions enclosed it.
        var depth: Int
        /// How many ended with it, unfinished.
        var endedInside: Int
        var action: Int32
        var root: Int32
    }
}

// MARK: - Event handling

extension TraceModelBuilder {
    /// The position of node `id`, creating an inferred node the first time the
    /// trace mentions it without having created it.
    @inline(__always)
    func position(of id: UInt64, inferring kind: TraceNodeKind) -> Int32 {
        if let position = nodes.find(id) { return position }
        return add(id, inferring: kind)
    }

    /// Adds node `id` to the node table and a row for it to each per-node column.
    private func add(_ id: UInt64, inferring kind: TraceNodeKind) -> Int32 {
        let position = nodes.add(id, inferring: kind)
        // A node's final name from its first mention, when a lookahead read it.
        if let name = finalNames?[id] { nodes[Int(position)].givenName = name }
        states.append(readsLightPoints ? Self.unknownState : NodeState())
        edges.addNode()
        return position
    }

    /// The root action of the innermost open run or action on `thread`, or -1
    /// (read in place: copying the frame would retain its cause).
    @inline(__always)
    private func enclosingRoot(_ thread: Int) -> Int32 {
        slices.innermostRoot(thread)
    }

    /// The cause of the innermost open run or action on `thread` (only read while tracking causes).
    private func enclosingCause(_ thread: Int) -> CauseLink? {
        slices.innermostCause(thread)
    }

    private func created(_ id: UInt64, kind: TraceNodeKind, name: String, parent: UInt64, at time: UInt64) -> Int32 {
        let node = position(of: id, inferring: kind)
        let parentNode = parent == 0 ? -1 : position(of: parent, inferring: NodeTracker.parentKind(of: kind))
        nodes.created(node, kind: kind, name: finalNames?[id] ?? name, parent: parent, parentNode: parentNode, at: time)
        matchTarget(node)
        return node
    }

    private func sited(_ id: UInt64, site: String) {
        // Positioned first: positioning a new node grows the table the site goes to.
        let node = position(of: id, inferring: .dependency)
        nodes.sited(node, site: site)
    }

    private func named(_ id: UInt64, name: String, owner: UInt64) -> Int32 {
        let node = position(of: id, inferring: .reactiveValue)
        if owner != 0 { _ = position(of: owner, inferring: .store) }
        nodes.named(node, name: finalNames?[id] ?? name, owner: owner)
        matchTarget(node)
        return node
    }

    private func stopped(_ id: UInt64, at time: UInt64) -> Int32 {
        let node = position(of: id, inferring: .dependency)
        nodes.stopped(node, at: time)
        edges.dropAll(of: node)
        return node
    }

    private func issue(_ kind: TraceIssueKind, node: UInt64, message: String, at time: UInt64) {
        if node != 0 { _ = position(of: node, inferring: .computation) }
        issues.record(kind, node: node, message: message, at: time)
    }

    private func matchTarget(_ node: Int32) {
        valueRows?.named(node, name: nodes[Int(node)].name, ordinal: valueEvents)
        // Reading light points, the nodes followed are entered by the index (``enterHistory(node:)``).
        if let target = options.valueHistoryOf, !readsLightPoints, !states[Int(node)].inHistory,
           nodes[Int(node)].name == target || "#\(nodes[Int(node)].id)" == target {
            states[Int(node)].inHistory = true
            // A node named after its first value (an `@Reactive` learns its
            // owner on first access): that value opens its history.
            if let value = nodes[Int(node)].value, let time = nodes[Int(node)].valueTimestamp {
                history.record(node, value: value, root: states[Int(node)].valueRoot, at: time)
            }
        }
        everything?.match(node, name: nodes[Int(node)].name, id: nodes[Int(node)].id)
        guard !collectors.isEmpty else { return }
        // Reading chunks alone, the index says which nodes the target's name matches (``explainAlone(_:named:)``).
        if let aloneTargets {
            if aloneTargets.contains(nodes[Int(node)].id) { states[Int(node)].collector = 0 }
            return
        }
        let record = nodes[Int(node)]
        if let collector = collectorByName[record.name] ?? collectorByName["#\(record.id)"] {
            states[Int(node)].collector = collector
        }
    }

    private func depend(_ computationID: UInt64, on dependencyID: UInt64, at time: UInt64) -> (Int32, Int32) {
        let computation = position(of: computationID, inferring: .computation)
        let dependency = position(of: dependencyID, inferring: .dependency)
        edges.depended(computation, on: dependency, ids: (computationID, dependencyID), at: time)
        return (computation, dependency)
    }

    /// Returns the node's position and whether the change carries the value its write recorded.
    private func changed(_ dependencyID: UInt64, thread: Int) -> (Int32, Bool) {
        let dependency = position(of: dependencyID, inferring: .dependency)
        nodes[Int(dependency)].changes += 1
        // The write's value event comes right before its change on its thread.
        var values: WhyValueChange?
        // Moved, not copied: a write's strings are retained once per place that keeps them.
        latestChange = pendingWrites.take(thread, where: { $0.node == dependency })
        if tracksCauses, let pending = latestChange {
            values = WhyValueChange(previous: pending.previous, value: pending.value)
        }
        let carriesValue = latestChange != nil
        if nodes[Int(dependency)].kind == .computed {
            // A computed announces a new value right after its run: the run is the cause.
            states[Int(dependency)].changeRoot = states[Int(dependency)].runRoot
            if tracksCauses { causes.changed(dependency, values: values, after: causes.run(of: dependency)) }
        } else {
            states[Int(dependency)].changeRoot = enclosingRoot(thread)
            if tracksCauses { causes.changed(dependency, values: values, after: enclosingCause(thread)) }
        }
        return (dependency, carriesValue)
    }

    private func invalidated(_ computationID: UInt64, cause: InvalidationCause, source: UInt64, thread: Int,
                             at time: UInt64) -> Int32 {
        let computation = position(of: computationID, inferring: .computation)
        nodes[Int(computation)].invalidations.count(cause)
        edges.dropAll(of: computation)
        // The first invalidation since the last run schedules the rerun: it is
        // the rerun's cause. The runtime records a later one only for a stop,
        // which says what stopped the computation but schedules nothing.
        let pending = states[Int(computation)].pendingRoot != Self.notPending
        let root: Int32
        // Causes are links (retained) and only kept while tracking causes.
        var previous: CauseLink?
        switch cause {
        case .dependency:
            let dependency = position(of: source, inferring: .dependency)
            edges.invalidated(computation, through: dependency, ids: (computationID, source), at: time)
            root = states[Int(dependency)].changeRoot
            if tracksCauses { previous = causes.change(of: dependency) }
        case .parent:
            let parent = position(of: source, inferring: .computation)
            root = Self.cause(pending: states[Int(parent)].pendingRoot)
            if tracksCauses { previous = causes.pending(of: parent) }
        case .explicit, .stop, .runaway, .error:
            root = enclosingRoot(thread)
            if tracksCauses { previous = enclosingCause(thread) }
        }
        if !pending { states[Int(computation)].pendingRoot = root }
        guard tracksCauses else { return computation }
        let link = causes.invalidated(computation, cause: cause, after: previous, schedulesRerun: !pending)
        let collector = states[Int(computation)].collector
        if collector >= 0 && cause.stops {
            collectors[Int(collector)].record(.stopped, stopCause: cause, node: nodes[Int(computation)].id, at: time, link: link,
                                              limit: options.whyEntryLimit)
        }
        if cause.stops, let everything {
            everything.record(.stopped, stopCause: cause, node: computation, id: nodes[Int(computation)].id, at: time,
                              link: link)
        }
        return computation
    }

    private func runBegan(_ computationID: UInt64, firstRun: Bool, thread: Int, at time: UInt64) -> Int32 {
        let computation = position(of: computationID, inferring: .computation)
        nodes[Int(computation)].runs.runs += 1
        if firstRun { nodes[Int(computation)].runs.firstRuns += 1 }
        edges.dropAll(of: computation)
        let root = firstRun ? enclosingRoot(thread) : Self.cause(pending: states[Int(computation)].pendingRoot)
        var cause: CauseLink?
        if tracksCauses {
            // A rerun with no invalidation recorded since the last run has an unknown cause (root none).
            let link = causes.ran(computation, firstRun: firstRun, enclosing: enclosingCause(thread))
            cause = link
            let collector = states[Int(computation)].collector
            if collector >= 0 {
                collectors[Int(collector)].record(firstRun ? .firstRun : .rerun, node: computationID, at: time,
                                                  link: link, limit: options.whyEntryLimit)
            }
            everything?.record(firstRun ? .firstRun : .rerun, node: computation, id: computationID, at: time, link: link)
        }
        states[Int(computation)].pendingRoot = Self.notPending
        if root >= 0 {
            actions.caused(root, runOf: computationID, firstRun: firstRun)
        }
        slices.push(SliceTracker.Frame(isAction: false, node: computation, action: -1, root: root, cause: cause,
                                       begin: time, firstRun: firstRun), thread: thread)
        return computation
    }

    private func runEnded(_ computationID: UInt64, thread: Int, at time: UInt64) -> EndedSlice? {
        guard let computation = nodes.find(computationID) else { return nil }
        guard let ended = slices.endRun(computation, thread: thread, at: time) else { return nil }
        let duration = ended.duration, exclusive = ended.exclusive
        nodes[Int(computation)].runs.ended(duration: duration, exclusive: exclusive, firstRun: ended.frame.firstRun)
        // What its body threw past ends with it, as the exports draw it (docs/METRICS.md, "Unfinished runs").
        for inside in ended.inside {
            if inside.frame.isAction {
                actions.ended(inside.frame.action, after: inside.duration)
            } else {
                nodes[Int(inside.frame.node)].runs.ended(duration: inside.duration, exclusive: inside.exclusive,
                                                         firstRun: inside.frame.firstRun)
            }
        }
        states[Int(computation)].runRoot = ended.frame.root
        if tracksCauses { causes.ended(run: computation, cause: ended.frame.cause) }
        return EndedSlice(slice: ImportedSlice(kind: .run, begin: ended.frame.begin, durationNanoseconds: duration,
                                               selfNanoseconds: exclusive, firstRun: ended.frame.firstRun,
                                               outermost: false, ends: true),
                          depth: ended.depth, endedInside: ended.endedInside, action: -1, root: ended.frame.root)
    }

    private func actionBegan(_ storeID: UInt64, name: String, arguments: String, thread: Int, at time: UInt64) {
        let store = position(of: storeID, inferring: .store)
        let action = actions.called(store: store, storeID: storeID, storeName: nodes[Int(store)].givenName, name: name,
                                    arguments: arguments)
        let enclosing = slices.innermost(thread)
        // A chain's root is its first step: an action called inside a run or
        // an action continues that one's chain and has its root, none when
        // the chain did not start at an action (as the link chain says).
        let root = enclosing?.root ?? action
        let cause = tracksCauses
            ? causes.called(action, ordinal: actions[action].count, arguments: arguments, enclosing: enclosing?.cause)
            : nil
        slices.push(SliceTracker.Frame(isAction: true, node: store, action: action, root: root, cause: cause,
                                       begin: time), thread: thread)
    }

    /// Attaches a call site to the action invocation just begun on `thread`.
    private func actionSited(site: String, thread: Int) {
        guard let frame = slices.innermost(thread), frame.isAction else { return }
        if case let .action(call)? = frame.cause?.step { call.site = site }
    }

    private func actionEnded(_ storeID: UInt64, thread: Int, at time: UInt64) -> EndedSlice? {
        guard let store = nodes.find(storeID), let ended = slices.endAction(store, thread: thread, at: time)
        else { return nil }
        let frame = ended.frame, duration = ended.duration, depth = ended.depth
        actions.ended(frame.action, after: duration)
        if tracksCauses { causes.ended(action: frame.cause) }
        let outermost = slices.isOutermost(thread, below: depth)
        return EndedSlice(slice: ImportedSlice(kind: .action, begin: frame.begin, durationNanoseconds: duration,
                                               selfNanoseconds: duration, firstRun: false, outermost: outermost,
                                               ends: true),
                          depth: depth, endedInside: 0, action: frame.action, root: frame.root)
    }

    /// A value event: `value` is node `id`'s value from now on.
    private func took(_ value: String, node id: UInt64, thread: Int, at time: UInt64) -> ImportedValue {
        let node = position(of: id, inferring: .reactiveValue)
        // A computed records its value after its run: the run's cause set it.
        let root = nodes[Int(node)].kind == .computed ? states[Int(node)].runRoot : enclosingRoot(thread)
        if states[Int(node)].inHistory { history.record(node, value: value, root: root, at: time) }
        valueRows?.took(node, value: value, root: root, ordinal: valueEvents, at: time)
        let ordinal = valueEvents
        valueEvents += 1
        // The previous value in time order, when read beforehand (docs/TRACE_FORMAT.md, 7a).
        let ordered = options.lookahead?.previousValue(at: ordinal)
        // Chunks of different threads interleave out of time order: the latest write wins the
        // node's value; with the time order known, the write keeps its own old → new.
        if let known = nodes[Int(node)].valueTimestamp, known > time {
            guard let ordered else {
                pendingWrites[thread] = nil
                return .stale
            }
            states[Int(node)].previousValue = ordered
            pendingWrites[thread] = PendingWrite(node: node, previous: ordered, value: value)
            return .written
        }
        // The old value moves to the write's record, and the new one to the node: a copy each
        // for the node's previous value and the write's new one.
        let old = nodes[Int(node)].value.take()
        let first = old == nil
        let previous = ordered ?? old
        states[Int(node)].previousValue = previous
        pendingWrites[thread] = PendingWrite(node: node, previous: previous, value: value)
        nodes[Int(node)].value = value
        nodes[Int(node)].valueTimestamp = time
        states[Int(node)].valueRoot = root
        return first ? .first : .written
    }

    private func takeSnapshot(at timestamp: UInt64) {
        var live = Set<UInt64>()
        for node in nodes.table where node.isAlive(at: timestamp) { live.insert(node.id) }
        snapshot = TraceSnapshot(timestamp: timestamp, liveNodes: live, edges: edges.held)
        snapshotDue = .max
    }
}

// MARK: - Explanations

extension TraceModelBuilder {
    private func report(for collector: WhyCollector) -> WhyReport {
        var report = WhyReport(target: collector.target)
        report.describe(WhyReport.computations(matching: collector.target, in: nodes.table.array))
        report.firstRuns = collector.firstRuns
        report.reruns = collector.reruns
        report.stops = collector.stops
        for (cause, count) in collector.stopsByCause { report.stopsByCause[cause.label] = count }
        report.entries = collector.entries.map { entry in
            WhyEntry(timestamp: entry.timestamp, node: entry.node, event: entry.event, chain: steps(of: entry.link),
                     stopCause: entry.stopCause)
        }
        report.omittedEntries = collector.omitted
        report.patterns = WhyPattern.ordered(collector.patterns.values
            .map { WhyPattern(chain: steps(of: $0.example).map(\.withoutArguments), count: $0.count) })
        report.ungroupedEntries = collector.ungrouped
        return report
    }

    /// A chain's steps from its root, with the names and kinds known now.
    func steps(of link: CauseLink) -> [WhyStep] {
        link.stepsFromRoot.map { step in
            switch step {
            case let .action(call):
                return .action(name: actionName(call.action), arguments: call.arguments, site: call.site)
            case let .changed(node, values):
                return .changed(name: nodes[Int(node)].name, kind: nodes[Int(node)].kind, values: values)
            case let .invalidated(node, cause):
                return .invalidated(name: nodes[Int(node)].name, kind: nodes[Int(node)].kind, cause: cause)
            case let .ran(node, firstRun):
                return .ran(name: nodes[Int(node)].name, kind: nodes[Int(node)].kind, firstRun: firstRun)
            case .unknown:
                return .unknown
            case let .elided(count):
                return .elided(count: count)
            }
        }
    }
}
