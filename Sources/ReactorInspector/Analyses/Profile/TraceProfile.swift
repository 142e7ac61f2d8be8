import ReactorTraceFormat

/// The CI view of a trace, built in one streaming pass: per-computation
/// rerun counts and times, per-action reruns caused (followed through the
/// causal chain action → changed → invalidated → reran), flush durations,
/// issues, a rerun-duration histogram and a timeline of flushes and actions.
///
/// Memory grows with the number of nodes and action names, not with events
/// (the timeline keeps at most ``maximumTimelineSpans`` spans).
public final class TraceProfile {
    /// How many flush and action spans the timeline keeps; later ones are counted in ``droppedTimelineSpans``.
    public let maximumTimelineSpans: Int

    /// Every event recorded.
    public private(set) var eventCount = 0
    /// Events per kind.
    public private(set) var eventsByKind: [TraceEventKind: Int] = [:]
    /// The first event's timestamp.
    public private(set) var firstTimestamp: UInt64?
    /// The latest timestamp seen.
    public private(set) var lastTimestamp: UInt64 = 0
    /// Thread indexes seen.
    public private(set) var threads: Set<UInt32> = []
    /// Every rerun's duration (first runs excluded).
    public private(set) var rerunHistogram = RerunHistogram()
    /// Flushes and actions in time order of their end, up to ``maximumTimelineSpans``.
    public private(set) var timeline: [TimelineSpan] = []
    /// Spans not kept because the timeline was full.
    public private(set) var droppedTimelineSpans = 0
    /// Flush durations.
    public private(set) var flushes = FlushProfile()

    struct Node {
        var kind: TraceNodeKind
        var name: String
        var parent: UInt64
        var owner: UInt64 = 0
        /// False for a node known only from a `nodeNamed` (its kind is a guess).
        var created = true
    }

    struct ComputationCounters {
        var runs = 0
        var reruns = 0
        var totalRerunNanoseconds: UInt64 = 0
        var maxRerunNanoseconds: UInt64 = 0
        var slowestCause: CauseStep?
        var latestCause: CauseStep?
    }

    struct RunningComputation {
        var computation: UInt64
        var start: UInt64
        var firstRun: Bool
        var cause: CauseStep?
    }

    struct OpenAction {
        var invocation: ActionInvocation
        var store: UInt64
        var start: UInt64
        var step: CauseStep
        var rerunsAtStart: Int
    }

    struct OpenFlush {
        var start: UInt64
        var reruns: [UInt64: (count: Int, nanoseconds: UInt64)] = [:]
        var rerunCount = 0
    }

    struct ThreadState {
        var running: [RunningComputation] = []
        var actions: [OpenAction] = []
        var flushes: [OpenFlush] = []
    }

    private(set) var nodes: [UInt64: Node] = [:]
    private(set) var counters: [UInt64: ComputationCounters] = [:]
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

    /// Nodes per kind.
    public var nodesByKind: [TraceNodeKind: Int] {
        var result: [TraceNodeKind: Int] = [:]
        for node in nodes.values { result[node.kind, default: 0] += 1 }
        return result
    }

    /// The name of node `id` (`#id` when the trace never named it).
    public func name(of id: UInt64) -> String {
        guard let node = nodes[id] else { return id == 0 ? "(none)" : TraceNode.unnamed(id, createdAs: nil) }
        return node.name.isEmpty ? TraceNode.unnamed(id, createdAs: node.created ? node.kind : nil) : node.name
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

    /// Consumes one event.
    public func record(_ event: TraceEvent) {
        if var timeline = actionTimeline {
            builder.consume(event, visiting: &timeline)
        } else {
            builder.consume(event)
        }
        finished = nil
        eventCount += 1
        eventsByKind[event.record.kind, default: 0] += 1
        if firstTimestamp == nil { firstTimestamp = event.timestamp }
        lastTimestamp = max(lastTimestamp, event.timestamp)
        threads.insert(event.thread)
        let time = event.timestamp
        let thread = event.thread

        switch event.record {
        case .nodeCreated(let id, let kind, let name, let parent):
            nodes[id] = Node(kind: kind, name: name, parent: parent)
        case .nodeNamed(let id, let name, let owner):
            if nodes[id] == nil { nodes[id] = Node(kind: .dependency, name: name, parent: 0, created: false) }
            nodes[id]?.name = name
            nodes[id]?.owner = owner
        case .nodeStopped(let id):
            pendingCause[id] = nil
        case .depend, .value, .site:
            break
        case .changed(let dependency):
            // A computed announces its new value after its rerun ended: the
            // change continues that rerun's chain, not whatever is open now.
            let context = nodes[dependency]?.kind == .computed
                ? counters[dependency]?.latestCause ?? currentContext(on: thread)
                : currentContext(on: thread)
            lastChange[dependency] = context?.appending(.changed(dependency: dependency))
                ?? CauseStep(root: .changed(dependency: dependency))
        case .invalidated(let computation, let cause, let source):
            invalidated(computation, cause: cause, source: source, on: thread)
        case .rerunBegan(let computation, let firstRun):
            rerunBegan(computation, firstRun: firstRun, at: time, on: thread)
        case .rerunEnded(let computation):
            rerunEnded(computation, at: time, on: thread)
        case .actionBegan(let store, let name, let arguments):
            let key = ActionKey(store: store, name: name)
            let aggregate = actionAggregates[key] ?? {
                let created = ActionAggregate(store: store, name: name)
                actionAggregates[key] = created
                return created
            }()
            aggregate.invocations += 1
            let invocation = ActionInvocation(aggregate: aggregate, arguments: arguments)
            let step = CauseStep(root: .action(store: store, name: name, arguments: arguments), invocation: invocation)
            threadStates[thread, default: ThreadState()].actions.append(
                OpenAction(invocation: invocation, store: store, start: time, step: step, rerunsAtStart: 0))
        case .actionEnded(let store):
            actionEnded(store, at: time, on: thread)
        case .flushBegan:
            threadStates[thread, default: ThreadState()].flushes.append(OpenFlush(start: time))
        case .flushEnded:
            flushEnded(at: time, on: thread)
        case .issue(let kind, let node, let message):
            if var profile = issueProfiles[kind] {
                profile.count += 1
                issueProfiles[kind] = profile
            } else {
                issueProfiles[kind] = IssueProfile(kind: kind, count: 1, firstMessage: message,
                                                   firstNode: node == 0 ? "" : name(of: node))
            }
        }
    }

    /// The chain that anything happening now on `thread` continues: the running
    /// computation's cause, else the innermost open action.
    private func currentContext(on thread: UInt32) -> CauseStep? {
        guard let state = threadStates[thread] else { return nil }
        if let running = state.running.last, let cause = running.cause { return cause }
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

    private func rerunBegan(_ computation: UInt64, firstRun: Bool, at time: UInt64, on thread: UInt32) {
        var chain: CauseStep?
        counters[computation, default: ComputationCounters()].runs += 1
        if firstRun {
            chain = currentContext(on: thread)
        } else {
            let base = pendingCause.removeValue(forKey: computation) ?? currentContext(on: thread)
            let step = base?.appending(.reran(computation: computation)) ?? CauseStep(root: .reran(computation: computation))
            chain = step
            counters[computation]!.reruns += 1
            counters[computation]!.latestCause = step
            step.invocation?.chargeRerun(of: computation)
        }
        threadStates[thread, default: ThreadState()].running.append(
            RunningComputation(computation: computation, start: time, firstRun: firstRun, cause: chain))
    }

    private func rerunEnded(_ computation: UInt64, at time: UInt64, on thread: UInt32) {
        guard var state = threadStates[thread],
              let index = state.running.lastIndex(where: { $0.computation == computation }) else { return }
        let run = state.running[index]
        state.running.removeSubrange(index...)
        if !run.firstRun {
            let duration = time &- run.start
            rerunHistogram.add(duration)
            var counter = counters[computation, default: ComputationCounters()]
            counter.totalRerunNanoseconds += duration
            if duration >= counter.maxRerunNanoseconds {
                counter.maxRerunNanoseconds = duration
                counter.slowestCause = run.cause
            }
            counters[computation] = counter
            if !state.flushes.isEmpty {
                let last = state.flushes.count - 1
                let previous = state.flushes[last].reruns[computation] ?? (0, 0)
                state.flushes[last].reruns[computation] = (previous.count + 1, previous.nanoseconds + duration)
                state.flushes[last].rerunCount += 1
            }
        }
        threadStates[thread] = state
    }

    private func actionEnded(_ store: UInt64, at time: UInt64, on thread: UInt32) {
        guard var state = threadStates[thread],
              let index = state.actions.lastIndex(where: { $0.store == store }) else { return }
        let open = state.actions[index]
        state.actions.removeSubrange(index...)
        threadStates[thread] = state
        let duration = time &- open.start
        let aggregate = open.invocation.aggregate
        aggregate.totalNanoseconds += duration
        aggregate.maxNanoseconds = max(aggregate.maxNanoseconds, duration)
        appendSpan(TimelineSpan(kind: .action, thread: thread, start: open.start, end: time,
                                label: qualifiedName(store: store, action: aggregate.name), reruns: open.invocation.reruns))
    }

    private func flushEnded(at time: UInt64, on thread: UInt32) {
        guard var state = threadStates[thread], let open = state.flushes.popLast() else { return }
        threadStates[thread] = state
        let duration = time &- open.start
        flushes.count += 1
        flushes.totalNanoseconds += duration
        if duration >= flushes.maxNanoseconds {
            flushes.maxNanoseconds = duration
            flushes.slowestStartNanoseconds = open.start
            flushes.slowestFlushReruns = open.reruns
                .sorted { $0.value.nanoseconds != $1.value.nanoseconds ? $0.value.nanoseconds > $1.value.nanoseconds : $0.key < $1.key }
                .prefix(5)
                .map { (name: name(of: $0.key), reruns: $0.value.count, nanoseconds: $0.value.nanoseconds) }
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
        appendSpan(TimelineSpan(kind: .flush, thread: thread, start: open.start, end: time, label: "flush", reruns: open.rerunCount))
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
