import ReactorTraceFormat

/// The CI view of a trace, built in one streaming pass: per-computation
/// rerun counts and times, per-action reruns caused (followed through the
/// causal chain action → changed → invalidated → reran), flush durations,
/// issues, a rerun-duration histogram and a timeline of flushes and actions.
///
/// It reads the events as the one importer resolves them
/// (``ImportedEventVisitor``): counts, names, kinds and every run's, action's
/// and flush's pairing and duration are the model's; the profile adds the
/// causal chains it charges reruns along and its aggregates.
/// Memory grows with the number of nodes and action names, not with events
/// (the timeline keeps at most ``maximumTimelineSpans`` spans).
public final class TraceProfile: ImportedEventVisitor {
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
    public var threads: Set<UInt32> { Set((0..<UInt32(model.threadCount)).map { $0 }) }
    /// Every rerun's duration (first runs excluded).
    public private(set) var rerunHistogram = RerunHistogram()
    /// Flushes and actions in time order of their end, up to ``maximumTimelineSpans``.
    public private(set) var timeline: [TimelineSpan] = []
    /// Spans not kept because the timeline was full.
    public private(set) var droppedTimelineSpans = 0
    /// Flush durations.
    public private(set) var flushes = FlushProfile()

    /// The causal chains of a computation's reruns.
    struct RerunCauses {
        var slowestNanoseconds: UInt64 = 0
        var slowest: CauseStep?
        var latest: CauseStep?
    }

    /// An open store action: its invocation and the chain its work continues.
    struct OpenAction {
        var invocation: ActionInvocation
        var store: UInt64
        var step: CauseStep
    }

    /// The reruns inside an open flush.
    struct OpenFlush {
        var reruns: [UInt64: (count: Int, nanoseconds: UInt64)] = [:]
        var rerunCount = 0
    }

    /// Per thread: the causes of the open runs, the open actions and flushes.
    struct ThreadState {
        var running: [CauseStep?] = []
        var actions: [OpenAction] = []
        var flushes: [OpenFlush] = []
    }

    private(set) var causes: [UInt64: RerunCauses] = [:]
    private let builder: TraceModelBuilder
    /// The view reading the same import, event by event, if any.
    private let actionTimeline: ActionTimeline?
    private var finished: TraceModel?
    /// Events the reader counted but did not hand out (see ``countUnreadEvents(of:)``).
    private var unread = (skipped: 0, clocks: 0)
    private var threadStates: [UInt32: ThreadState] = [:]
    /// The chain that led to each invalidated computation's next rerun.
    private var pendingCause: [UInt64: CauseStep] = [:]
    /// The chain of each dependency's latest change.
    private var lastChange: [UInt64: CauseStep] = [:]
    private(set) var actionAggregates: [ActionKey: ActionAggregate] = [:]
    private(set) var issueProfiles: [TraceIssueKind: IssueProfile] = [:]

    struct ActionKey: Hashable {
        var store: UInt64
        var name: String
    }

    /// An empty profile; feed it with ``record(_:)``. An `actionTimeline`
    /// reads the same import of the events (values tracked for it).
    public init(maximumTimelineSpans: Int = 20_000, actionTimeline: ActionTimeline? = nil) {
        self.maximumTimelineSpans = maximumTimelineSpans
        self.actionTimeline = actionTimeline
        builder = TraceModelBuilder(options: TraceModelOptions(tracksValues: actionTimeline != nil))
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

    /// Takes the next event as the importer resolved it (and hands it to the action timeline).
    public func visit(_ event: ImportedEvent, from importer: TraceModelBuilder) {
        actionTimeline?.visit(event, from: importer)
        let thread = event.thread
        switch event.record {
        case .nodeStopped(let id):
            pendingCause[id] = nil
        case .nodeCreated, .nodeNamed, .depend, .value, .site:
            break
        case .changed(let dependency):
            // A computed announces its new value after its rerun ended: the
            // change continues that rerun's chain, not whatever is open now.
            let context = importer.kind(ofNode: event.node) == .computed
                ? causes[dependency]?.latest ?? currentContext(on: thread)
                : currentContext(on: thread)
            lastChange[dependency] = context?.appending(.changed(dependency: dependency))
                ?? CauseStep(root: .changed(dependency: dependency))
        case .invalidated(let computation, let cause, let source):
            invalidated(computation, cause: cause, source: source, on: thread)
        case .rerunBegan(let computation, let firstRun):
            rerunBegan(computation, firstRun: firstRun, on: thread)
        case .rerunEnded(let computation):
            guard let slice = event.slice else { return }
            rerunEnded(computation, slice: slice, endedInside: event.endedInside, on: thread)
        case .actionBegan(let store, let name, let arguments):
            let name = importer.string(name), arguments = importer.string(arguments)
            let key = ActionKey(store: store, name: name)
            let aggregate = actionAggregates[key] ?? {
                let created = ActionAggregate(store: store, name: name)
                actionAggregates[key] = created
                return created
            }()
            aggregate.invocations += 1
            let invocation = ActionInvocation(aggregate: aggregate, arguments: arguments)
            let link = CauseStep.Link.action(store: store, name: name, arguments: arguments)
            // A chain's root is its first step: an action called inside a run
            // or an action continues that one's chain and is charged nothing
            // itself (as the importer's roots and `why`'s chains say).
            let step: CauseStep
            if let context = currentContext(on: thread) {
                step = context.appending(link)
            } else if threadStates[thread]?.running.isEmpty == false {
                step = CauseStep(root: link)
            } else {
                step = CauseStep(root: link, invocation: invocation)
            }
            threadStates[thread, default: ThreadState()].actions.append(
                OpenAction(invocation: invocation, store: store, step: step))
        case .actionEnded(let store):
            guard let slice = event.slice else { return }
            actionEnded(store, slice: slice, name: importer.actionName(event.action), on: thread)
        case .flushBegan:
            threadStates[thread, default: ThreadState()].flushes.append(OpenFlush())
        case .flushEnded:
            guard let slice = event.slice else { return }
            flushEnded(slice, on: thread, importer)
        case .issue(let kind, let node, let message):
            if var profile = issueProfiles[kind] {
                profile.count += 1
                issueProfiles[kind] = profile
            } else {
                issueProfiles[kind] = IssueProfile(kind: kind, count: 1, firstMessage: importer.string(message),
                                                   firstNode: node == 0 ? "" : Self.name(of: node, importer))
            }
        }
    }

    /// The chain that anything happening now on `thread` continues: the running
    /// computation's cause, else the innermost open action.
    private func currentContext(on thread: UInt32) -> CauseStep? {
        guard let state = threadStates[thread] else { return nil }
        if let running = state.running.last, let cause = running { return cause }
        return state.actions.last?.step
    }

    private func invalidated(_ computation: UInt64, cause: InvalidationCause, source: UInt64, on thread: UInt32) {
        // The first invalidation schedules the rerun; later ones before it runs change nothing.
        guard pendingCause[computation] == nil else { return }
        let base: CauseStep?
        switch cause {
        case .dependency:
            base = lastChange[source] ?? CauseStep(root: .changed(dependency: source))
        case .parent:
            base = pendingCause[source] ?? currentContext(on: thread)
        case .explicit:
            base = currentContext(on: thread)
        case .stop, .runaway, .error:
            return
        }
        let link = CauseStep.Link.invalidated(computation: computation, cause: cause)
        pendingCause[computation] = base?.appending(link) ?? CauseStep(root: link)
    }

    private func rerunBegan(_ computation: UInt64, firstRun: Bool, on thread: UInt32) {
        var chain: CauseStep?
        if firstRun {
            chain = currentContext(on: thread)
        } else {
            let base = pendingCause.removeValue(forKey: computation) ?? currentContext(on: thread)
            let step = base?.appending(.reran(computation: computation)) ?? CauseStep(root: .reran(computation: computation))
            chain = step
            causes[computation, default: RerunCauses()].latest = step
            step.invocation?.chargeRerun(of: computation)
        }
        threadStates[thread, default: ThreadState()].running.append(chain)
    }

    /// A run the importer paired ended; the runs it ended inside it, unfinished, end too.
    private func rerunEnded(_ computation: UInt64, slice: ImportedSlice, endedInside: Int, on thread: UInt32) {
        guard var state = threadStates[thread], !state.running.isEmpty else { return }
        // (What ended inside may include actions, which have no entry here: keep at least this run's.)
        state.running.removeLast(min(state.running.count - 1, endedInside))
        let cause = state.running.removeLast()
        if !slice.firstRun {
            let duration = slice.durationNanoseconds
            rerunHistogram.add(duration)
            if duration >= causes[computation, default: RerunCauses()].slowestNanoseconds {
                causes[computation]!.slowestNanoseconds = duration
                causes[computation]!.slowest = cause
            }
            if !state.flushes.isEmpty {
                let last = state.flushes.count - 1
                let previous = state.flushes[last].reruns[computation] ?? (0, 0)
                state.flushes[last].reruns[computation] = (previous.count + 1, previous.nanoseconds + duration)
                state.flushes[last].rerunCount += 1
            }
        }
        threadStates[thread] = state
    }

    private func actionEnded(_ store: UInt64, slice: ImportedSlice, name: String, on thread: UInt32) {
        guard var state = threadStates[thread],
              let index = state.actions.lastIndex(where: { $0.store == store }) else { return }
        let open = state.actions[index]
        state.actions.remove(at: index)
        threadStates[thread] = state
        let duration = slice.durationNanoseconds
        let aggregate = open.invocation.aggregate
        aggregate.totalNanoseconds += duration
        aggregate.maxNanoseconds = max(aggregate.maxNanoseconds, duration)
        appendSpan(TimelineSpan(kind: .action, thread: thread, start: slice.begin, end: slice.begin + duration,
                                label: name, reruns: open.invocation.reruns))
    }

    private func flushEnded(_ slice: ImportedSlice, on thread: UInt32, _ importer: TraceModelBuilder) {
        guard var state = threadStates[thread], let open = state.flushes.popLast() else { return }
        threadStates[thread] = state
        let duration = slice.durationNanoseconds
        flushes.count += 1
        flushes.totalNanoseconds += duration
        if duration >= flushes.maxNanoseconds {
            flushes.maxNanoseconds = duration
            flushes.slowestStartNanoseconds = slice.begin
            flushes.slowestFlushReruns = open.reruns
                .sorted { $0.value.nanoseconds != $1.value.nanoseconds ? $0.value.nanoseconds > $1.value.nanoseconds : $0.key < $1.key }
                .prefix(5)
                .map { (name: Self.name(of: $0.key, importer), reruns: $0.value.count, nanoseconds: $0.value.nanoseconds) }
        }
        // A nested (misused) flush's reruns also belong to the flush around it.
        if !state.flushes.isEmpty {
            let last = state.flushes.count - 1
            for (computation, value) in open.reruns {
                let previous = state.flushes[last].reruns[computation] ?? (0, 0)
                state.flushes[last].reruns[computation] = (previous.count + value.count, previous.nanoseconds + value.nanoseconds)
            }
            state.flushes[last].rerunCount += open.rerunCount
            threadStates[thread] = state
        }
        appendSpan(TimelineSpan(kind: .flush, thread: thread, start: slice.begin, end: slice.begin + duration,
                                label: "flush", reruns: open.rerunCount))
    }

    private func appendSpan(_ span: TimelineSpan) {
        if timeline.count < maximumTimelineSpans {
            timeline.append(span)
        } else {
            droppedTimelineSpans += 1
        }
    }

    func qualifiedName(store: UInt64, action: String) -> String {
        store == 0 ? action : "\(name(of: store)).\(action)"
    }
}
