/// Turns a ``LiveTrace`` into ``LiveSnapshot``s, one per refresh, keeping
/// what the previous one saw so that each can tell the rates of its interval.
public struct LiveSampler: Sendable {
    /// How many computations a snapshot's hot table lists.
    public var top: Int
    /// How many actions and issues a snapshot lists.
    public var recent: Int

    private var previousRuns: [String: RunStats] = [:]
    private var previousEvents = 0
    private var sampled = false
    /// The ``LiveTrace/generation`` sampled: another recording starts the rates over.
    private var generation = 0

    /// A sampler listing `top` computations and `recent` actions and issues.
    public init(top: Int = 10, recent: Int = 8) {
        self.top = max(0, top)
        self.recent = max(0, recent)
    }

    /// The snapshot of `model` (``LiveTrace/model()``) and `trace`, with rates
    /// over `elapsedNanoseconds` since the previous snapshot. The first
    /// snapshot, or one with no elapsed time given, has its rates over the
    /// whole trace.
    public mutating func snapshot(of trace: LiveTrace, model: TraceModel,
                                  elapsedNanoseconds: UInt64? = nil) -> LiveSnapshot {
        if trace.generation != generation {
            generation = trace.generation
            previousRuns = [:]
            previousEvents = 0
            sampled = false
        }
        let whole = model.eventCount > 0 ? model.durationNanoseconds : 0
        let interval = sampled ? (elapsedNanoseconds ?? whole) : whole
        let seconds = interval > 0 ? Double(interval) / 1e9 : 0
        let groups = ComputationGroup.all(in: model)
        var current: [String: RunStats] = [:]
        var rows: [LiveHotRow] = []
        for group in groups {
            let key = "\(group.kind.rawValue)|\(group.name)"
            current[key] = group.runs
            let before = sampled ? previousRuns[key] ?? RunStats() : RunStats()
            let reruns = group.runs.reruns - before.reruns
            let time = group.runs.totalNanoseconds &- before.totalNanoseconds
            let durations = group.runs.durations.subtracting(before.durations)
            rows.append(LiveHotRow(
                name: group.name, kind: group.kind.label, instances: group.ids.count, reruns: group.runs.reruns,
                intervalReruns: reruns, rerunsPerSecond: seconds > 0 ? Double(reruns) / seconds : 0,
                nanosecondsPerSecond: seconds > 0 ? Double(time) / seconds : 0,
                intervalP99Nanoseconds: durations.percentile(0.99), p99Nanoseconds: group.runs.p99Nanoseconds,
                totalNanoseconds: group.runs.totalNanoseconds))
        }
        rows.sort { lhs, rhs in
            if lhs.intervalReruns != rhs.intervalReruns { return lhs.intervalReruns > rhs.intervalReruns }
            if lhs.reruns != rhs.reruns { return lhs.reruns > rhs.reruns }
            if lhs.totalNanoseconds != rhs.totalNanoseconds { return lhs.totalNanoseconds > rhs.totalNanoseconds }
            return lhs.name < rhs.name
        }
        let actions = trace.recentActions.suffix(recent).reversed().map { action in
            let store = model.name(of: action.store)
            return LiveSnapshot.Action(
                ordinal: action.ordinal, name: store.isEmpty ? action.name : "\(store).\(action.name)",
                arguments: action.arguments, atNanoseconds: action.beganAt, durationNanoseconds: action.durationNanoseconds,
                changed: action.changed.map { model.name(of: $0) }, changeCount: action.changeCount,
                values: action.values)
        }
        let issues = model.issues.suffix(recent).reversed().map { issue in
            LiveSnapshot.Issue(atNanoseconds: issue.timestamp, kind: issue.kind.label,
                               node: issue.node == 0 ? "" : model.name(of: issue.node), message: issue.message)
        }
        let newEvents = model.totalEvents - (sampled ? previousEvents : 0)
        let detail: String
        switch trace.status {
        case let .waiting(text), let .damaged(text), let .stalled(text): detail = text
        case .recording: detail = ""
        case .finished: detail = trace.end.map { "ended: " + $0.termination.endedText } ?? ""
        }
        previousRuns = current
        previousEvents = model.totalEvents
        sampled = true
        return LiveSnapshot(
            path: trace.path, status: trace.status.label, statusDetail: detail, events: model.totalEvents,
            eventsPerSecond: seconds > 0 ? Double(newEvents) / seconds : 0, nodes: model.nodes.count,
            liveEdges: model.finalEdges.count, durationNanoseconds: whole, intervalNanoseconds: interval,
            hot: Array(rows.prefix(top)), computations: groups.count, actions: Array(actions), issues: Array(issues),
            issueCount: model.issues.count)
    }
}
