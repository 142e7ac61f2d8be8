import ReactorTraceFormat

/// The CI view of a trace, built in one streaming pass: per-computation
/// rerun counts and times, per-action reruns caused (charged along the
/// causal chain action → changed → invalidated → reran), flush durations,
/// issues, a rerun-duration histogram and a timeline of flushes and actions.
///
/// It reads the events as the one importer resolves them
/// (``ImportedEventVisitor``), with causes tracked
/// (``TraceModelOptions/tracksCauses``): counts, names, kinds, every run's,
/// action's and flush's pairing and duration, every rerun's causal chain and
/// the action call charged with it are the importer's; the profile picks the
/// chains it shows (each computation's latest and slowest rerun, each
/// action's worst call) and adds its aggregates.
/// Memory grows with the number of nodes and action names, not with events
/// (the timeline keeps at most ``maximumTimelineSpans`` spans).
public final class TraceProfile: ImportedEventVisitor {
    // One profile, one thread (it is not `Sendable`): the state touched on every rerun
    // opts out of dynamic exclusivity checks, as the importer's does.
    /// How many flush and action spans the timeline keeps; later ones are counted in ``droppedTimelineSpans``.
    public let maximumTimelineSpans: Int

    /// Every event of the trace (decoded, skipped or clock), as its end block counts them.
    public var eventCount: Int { model.totalEvents }
    /// Events per kind.
    public var eventsByKind: [TraceEventKind: Int] { model.eventsByKind }
    /// The first event's timestamp.
    public var firstTimestamp: UInt64? { model.eventCount == 0 ? nil : model.firstTimestamp }
    /// The latest timestamp seen.
    public var lastTimestamp: UInt64 { model.lastTimestamp }
    /// Thread indexes seen.
    public var threads: Set<UInt32> { Set(model.threadIndexes) }
    /// Every rerun's duration (first runs excluded).
    @exclusivity(unchecked) public private(set) var rerunHistogram = RerunHistogram()
    /// Flushes and actions in time order of their end, up to ``maximumTimelineSpans``.
    /// An action's reruns are those charged to its call so far, as the
    /// actions' figures count them: the flush its end runs comes after it.
    public var timeline: [TimelineSpan] {
        var spans = recordedSpans
        for (index, call) in actionSpanCalls { spans[index].reruns = call.reruns }
        return spans
    }
    private var recordedSpans: [TimelineSpan] = []
    /// Per action span (its index in `recordedSpans`): the call its reruns are charged to.
    private var actionSpanCalls: [(index: Int, call: ActionCall)] = []
    /// Spans not kept because the timeline was full.
    public private(set) var droppedTimelineSpans = 0
    /// Flush durations.
    @exclusivity(unchecked) public private(set) var flushes = FlushProfile()

    /// The causal chains of a computation's latest, slowest and most frequent reruns, as the importer built them.
    struct RerunChains {
        var slowestNanoseconds: UInt64 = 0
        var slowest: CauseLink?
        var latest: CauseLink?
        /// The chain most reruns followed (the first to reach that many), and how many.
        var dominant: CauseLink?
        var dominantCount = 0
    }

    /// The reruns inside an open flush.
    struct OpenFlush {
        var reruns: [UInt64: (count: Int, nanoseconds: UInt64)] = [:]
        var rerunCount = 0

        mutating func addReruns(of computation: UInt64, count: Int, nanoseconds: UInt64) {
            let previous = reruns[computation] ?? (0, 0)
            reruns[computation] = (previous.count + count, previous.nanoseconds.saturatingAdd(nanoseconds))
            rerunCount += count
        }

        /// Adds a nested flush's reruns.
        mutating func add(_ nested: OpenFlush) {
            for (computation, value) in nested.reruns {
                addReruns(of: computation, count: value.count, nanoseconds: value.nanoseconds)
            }
        }
    }

    /// Per computation (the importer's position): the chains its reruns' figures are explained by.
    @exclusivity(unchecked) private var rerunChainsByPosition: [RerunChains] = []
    /// How many reruns of each computation followed each chain shape.
    @exclusivity(unchecked) private var shapeCounter = RerunShapeCounter()
    /// Per action (the importer's position): the call charged with the most
    /// reruns so far, the first to reach that many.
    @exclusivity(unchecked) private(set) var worstCalls: [Int32: ActionCall] = [:]
    /// The importer the profile reads (its names and chains outlive the pass).
    let builder: TraceModelBuilder
    /// The view reading the same import, event by event, if any.
    private let actionTimeline: ActionTimeline?
    @exclusivity(unchecked) private var finished: TraceModel?
    /// Events the reader counted but did not hand out (see ``countUnreadEvents(of:)``).
    private var unread = (skipped: 0, clocks: 0)
    /// Per thread index, the flushes open now, innermost last: a few threads, searched
    /// in place rather than hashed on every rerun (a hostile thread index costs one entry).
    @exclusivity(unchecked) private var openFlushes: [(thread: UInt32, stack: [OpenFlush])] = []
    private(set) var issueProfiles: [TraceIssueKind: IssueProfile] = [:]
    /// Judges each rerun needed or not (``WasteReport``), on the same import.
    let waste = WasteTracker()

    /// An empty profile; feed it with ``record(_:)``. An `actionTimeline`
    /// reads the same import of the events (values tracked for it).
    public init(maximumTimelineSpans: Int = 20_000, actionTimeline: ActionTimeline? = nil) {
        self.maximumTimelineSpans = maximumTimelineSpans
        self.actionTimeline = actionTimeline
        // Causes tracked: the importer's chains are what the profile charges and shows.
        // Values tracked: the waste judgement compares the values each run read.
        builder = TraceModelBuilder(options: TraceModelOptions(tracksValues: true, tracksCauses: true))
    }

    /// Builds a profile from a whole event sequence.
    public static func build(from events: some Sequence<TraceEvent>) -> TraceProfile {
        let profile = TraceProfile()
        for event in events { profile.record(event) }
        return profile
    }

    /// Nanoseconds from the first to the last event.
    public var durationNanoseconds: UInt64 { lastTimestamp - (firstTimestamp ?? lastTimestamp) }

    /// Nodes per kind (as created, or as inferred for nodes the trace only refers to).
    public var nodesByKind: [TraceNodeKind: Int] {
        var result: [TraceNodeKind: Int] = [:]
        for node in model.nodes { result[node.kind, default: 0] += 1 }
        return result
    }

    /// The name of node `id` (`#id` when the trace never named it).
    public func name(of id: UInt64) -> String {
        id == 0 ? "(none)" : Self.name(of: id, builder)
    }

    private static func name(of id: UInt64, _ importer: TraceModelBuilder) -> String {
        importer.position(ofNode: id).map { importer.name(ofNode: $0) } ?? TraceNode.unnamed(id, createdAs: nil)
    }

    /// The one model of the trace, which holds every figure the profile reports.
    public var model: TraceModel {
        if let finished { return finished }
        var model = builder.finish()
        model.skippedEvents = unread.skipped
        model.clockEvents = unread.clocks
        finished = model
        return model
    }

    /// Counts the events the reader of `report` read but did not hand out
    /// (skipped and clock events), so that the model's totals are every event
    /// of the trace, as its end block counts them.
    public func countUnreadEvents(of report: TraceReadReport) {
        unread = (report.skippedEvents, report.clockEvents)
        finished = nil
    }

    /// Consumes one event: imports it and reads what the importer resolved.
    public func record(_ event: TraceEvent) {
        var visitor = self
        builder.consume(event, visiting: &visitor)
        finished = nil
    }

    /// Consumes a batch of events as ``TraceReader/nextBatch(_:)`` lends it: the
    /// same as recording each of its events in order.
    public func consume(_ batch: borrowing TraceEventBatch) {
        var visitor = self
        builder.consume(batch, visiting: &visitor)
        finished = nil
    }

    /// Takes the next event as the importer resolved it (and hands it to the action timeline).
    public func visit(_ event: ImportedEvent, from importer: TraceModelBuilder) {
        actionTimeline?.visit(event, from: importer)
        waste.visit(event, from: importer)
        switch event.record {
        case .rerunBegan:
            guard let slice = event.slice, !slice.firstRun, let chain = importer.cause(ofSliceIn: event) else { return }
            followed(chain, computation: event.node)
            // The importer charged the rerun to the call at the chain's root.
            if let call = chain.rootCall, call.reruns > worstCalls[call.action]?.reruns ?? 0 {
                worstCalls[call.action] = call
            }
        case .rerunEnded(let computation):
            guard let slice = event.slice, !slice.firstRun else { return }
            rerunEnded(computation, at: event.node, slice: slice, chain: importer.cause(ofSliceIn: event), on: event.thread)
        case .actionEnded:
            guard let slice = event.slice else { return }
            // A call's chain ends in its own step: the reruns charged to it (none when it continued another's chain).
            var call: ActionCall?
            if case let .action(charged)? = importer.cause(ofSliceIn: event)?.step { call = charged }
            let kept = appendSpan(TimelineSpan(kind: .action, thread: event.thread, start: slice.begin,
                                               end: slice.begin.saturatingAdd(slice.durationNanoseconds),
                                               label: importer.actionName(event.action), reruns: call?.reruns ?? 0))
            if kept, let call { actionSpanCalls.append((recordedSpans.count - 1, call)) }
        case .flushBegan:
            if let index = openFlushes.firstIndex(where: { $0.thread == event.thread }) {
                openFlushes[index].stack.append(OpenFlush())
            } else {
                openFlushes.append((event.thread, [OpenFlush()]))
            }
        case .flushEnded:
            guard let slice = event.slice else { return }
            flushEnded(slice, on: event.thread, importer)
        case .issue(let kind, let node, let message):
            if var profile = issueProfiles[kind] {
                profile.count += 1
                issueProfiles[kind] = profile
            } else {
                issueProfiles[kind] = IssueProfile(kind: kind, count: 1, firstMessage: importer.string(message),
                                                   firstNode: node == 0 ? "" : Self.name(of: node, importer))
            }
        case .nodeCreated, .nodeNamed, .nodeStopped, .depend, .value, .site, .changed, .invalidated, .actionBegan:
            break
        }
    }

    /// The chains of the computation at `position`, if any of its reruns was seen.
    func rerunChains(atPosition position: Int32) -> RerunChains? {
        Int(position) < rerunChainsByPosition.count ? rerunChainsByPosition[Int(position)] : nil
    }

    private func growRerunChains(to position: Int32) {
        precondition(position >= 0, "a run's event names its computation")
        if Int(position) >= rerunChainsByPosition.count {
            rerunChainsByPosition.append(contentsOf: repeatElement(RerunChains(),
                                                                   count: Int(position) + 1 - rerunChainsByPosition.count))
        }
    }

    /// Counts a rerun of the computation at `position` caused by `chain`.
    private func followed(_ chain: CauseLink, computation position: Int32) {
        growRerunChains(to: position)
        // The chain ends in this rerun's `ran` step: its shape is this computation's.
        let count = shapeCounter.countRerun(following: shapeCounter.shape(of: chain))
        let index = Int(position)
        rerunChainsByPosition[index].latest = chain
        if count > rerunChainsByPosition[index].dominantCount {
            rerunChainsByPosition[index].dominantCount = count
            rerunChainsByPosition[index].dominant = chain
        }
    }

    private func rerunEnded(_ computation: UInt64, at position: Int32, slice: ImportedSlice, chain: CauseLink?,
                            on thread: UInt32) {
        let duration = slice.durationNanoseconds
        rerunHistogram.add(duration)
        growRerunChains(to: position)
        if duration >= rerunChainsByPosition[Int(position)].slowestNanoseconds {
            rerunChainsByPosition[Int(position)].slowestNanoseconds = duration
            rerunChainsByPosition[Int(position)].slowest = chain
        }
        // Mutated in place: a copy taken out of the dictionary would copy the flush's reruns on every rerun.
        if let index = openFlushes.firstIndex(where: { $0.thread == thread }),
           let last = openFlushes[index].stack.indices.last {
            openFlushes[index].stack[last].addReruns(of: computation, count: 1, nanoseconds: duration)
        }
    }

    private func flushEnded(_ slice: ImportedSlice, on thread: UInt32, _ importer: TraceModelBuilder) {
        guard let index = openFlushes.firstIndex(where: { $0.thread == thread }),
              let flush = openFlushes[index].stack.popLast() else { return }
        let duration = slice.durationNanoseconds
        flushes.count += 1
        flushes.totalNanoseconds = flushes.totalNanoseconds.saturatingAdd(duration)
        if duration >= flushes.maxNanoseconds {
            flushes.maxNanoseconds = duration
            flushes.slowestStartNanoseconds = slice.begin
            flushes.slowestFlushReruns = flush.reruns
                .sorted { $0.value.nanoseconds != $1.value.nanoseconds ? $0.value.nanoseconds > $1.value.nanoseconds : $0.key < $1.key }
                .prefix(5)
                .map { (name: Self.name(of: $0.key, importer), reruns: $0.value.count, nanoseconds: $0.value.nanoseconds) }
        }
        // A nested (misused) flush's reruns also belong to the flush around it.
        if let last = openFlushes[index].stack.indices.last {
            openFlushes[index].stack[last].add(flush)
        }
        appendSpan(TimelineSpan(kind: .flush, thread: thread, start: slice.begin, end: slice.begin.saturatingAdd(duration),
                                label: "flush", reruns: flush.rerunCount))
    }

    /// Keeps `span` unless the timeline is full; returns whether it did.
    @discardableResult
    private func appendSpan(_ span: TimelineSpan) -> Bool {
        guard recordedSpans.count < maximumTimelineSpans else {
            droppedTimelineSpans += 1
            return false
        }
        recordedSpans.append(span)
        return true
    }

    func qualifiedName(store: UInt64, action: String) -> String {
        store == 0 ? action : "\(name(of: store)).\(action)"
    }
}
