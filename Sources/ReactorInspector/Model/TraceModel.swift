import ReactorTraceFormat

/// Everything the analyses need from a trace, built by one streaming pass
/// (``TraceModelBuilder``). Its size grows with the trace's nodes and edges,
/// not with its events.
public struct TraceModel: Sendable {
    /// Every node, in order of first mention.
    public internal(set) var nodes: [TraceNode]
    /// Every dependency edge ever recorded, with how many invalidations flowed along it.
    public internal(set) var edges: [TraceEdge]
    /// The edges held when the trace ends.
    public internal(set) var finalEdges: Set<TraceEdgeKey>
    /// The graph at ``TraceModelOptions/snapshotAt``, when asked for.
    public internal(set) var snapshot: TraceSnapshot?
    /// Store actions by store and name, in order of first call.
    public internal(set) var actions: [ActionStats]
    /// How many events were decoded (of the kinds and values this reader knows).
    public internal(set) var eventCount: Int
    /// Events skipped as unknown: extension events (tags 64–255) and events
    /// with an enumeration value this reader does not know. They are events of
    /// the trace all the same: the end block counts them.
    public internal(set) var skippedEvents = 0
    /// Clock events: a thread's time before its first untimed event, read
    /// into the thread's time and not decoded into records.
    public internal(set) var clockEvents = 0
    /// Every event of the trace, decoded, skipped or clock: the number the end
    /// block's `events` counts.
    public var totalEvents: Int { eventCount + skippedEvents + clockEvents }
    /// Events by kind (kinds with none are absent).
    public internal(set) var eventsByKind: [TraceEventKind: Int]
    /// The first event's timestamp.
    public internal(set) var firstTimestamp: UInt64
    /// The last event's timestamp.
    public internal(set) var lastTimestamp: UInt64
    /// How many recording threads appear.
    public internal(set) var threadCount: Int
    /// The indexes the file gives the recording threads that appear, ascending
    /// (`0..<threadCount` for a trace the recorder wrote whole).
    public internal(set) var threadIndexes: [UInt32] = []
    /// The flushes.
    public internal(set) var flushes: FlushStats
    /// Issues by kind (kinds with none are absent).
    public internal(set) var issueCounts: [TraceIssueKind: Int]
    /// The first issues, with their messages (up to the options' limit).
    public internal(set) var issues: [TraceIssueRecord]
    /// Explanations asked for in ``TraceModelOptions/explaining``, by target name.
    public internal(set) var explanations: [String: WhyReport]
    /// Runs that began but whose end the trace does not hold (a truncated trace).
    public internal(set) var unfinishedRuns: Int
    /// Flushes that began but whose end the trace does not hold: not in ``flushes``
    /// (docs/METRICS.md, "Unfinished runs").
    public internal(set) var unfinishedFlushes = 0
    /// Every value of the nodes asked for in ``TraceModelOptions/valueHistoryOf``,
    /// in time order (empty otherwise).
    public internal(set) var valueHistory: [TraceValueChange] = []
    /// The latest timestamp of the trace, including events after
    /// ``TraceModelOptions/until`` that were read but not applied.
    public internal(set) var latestTimestampRead: UInt64 = 0
    /// True if the trace holds value events (recorded with value capture on).
    /// (Also when they all came after ``TraceModelOptions/until``.)
    public internal(set) var hasValues = false
    /// The computations invalidated and not yet rerun when the pass ended (at
    /// a moment: stale then, their rerun pending).
    public internal(set) var pendingReruns: Set<UInt64> = []

    let positions: [UInt64: Int]

    /// Builds the model from a sequence of events in one pass.
    public init<Events: Sequence>(events: Events, options: TraceModelOptions = TraceModelOptions())
    where Events.Element == TraceEvent {
        let builder = TraceModelBuilder(options: options)
        for event in events { builder.consume(event) }
        self = builder.finish()
    }

    init(nodes: [TraceNode], edges: [TraceEdge], finalEdges: Set<TraceEdgeKey>, snapshot: TraceSnapshot?,
         actions: [ActionStats], eventCount: Int, eventsByKind: [TraceEventKind: Int], firstTimestamp: UInt64,
         lastTimestamp: UInt64, threadCount: Int, flushes: FlushStats, issueCounts: [TraceIssueKind: Int],
         issues: [TraceIssueRecord], explanations: [String: WhyReport], unfinishedRuns: Int) {
        self.nodes = nodes
        self.edges = edges
        self.finalEdges = finalEdges
        self.snapshot = snapshot
        self.actions = actions
        self.eventCount = eventCount
        self.eventsByKind = eventsByKind
        self.firstTimestamp = firstTimestamp
        self.lastTimestamp = lastTimestamp
        self.threadCount = threadCount
        self.flushes = flushes
        self.issueCounts = issueCounts
        self.issues = issues
        self.explanations = explanations
        self.unfinishedRuns = unfinishedRuns
        var positions: [UInt64: Int] = [:]
        positions.reserveCapacity(nodes.count)
        for (position, node) in nodes.enumerated() { positions[node.id] = position }
        self.positions = positions
    }

    /// The trace's span from first to last event.
    public var durationNanoseconds: UInt64 { lastTimestamp &- firstTimestamp }

    /// The node with `id`, if the trace mentions it.
    public func node(_ id: UInt64) -> TraceNode? {
        positions[id].map { nodes[$0] }
    }

    /// The name to show for `id` (`#id` for an unknown node).
    public func name(of id: UInt64) -> String {
        node(id)?.name ?? TraceNode.unnamed(id, createdAs: nil)
    }

    /// Nodes matching `name`: by shown name, or `#id`.
    public func nodes(named name: String) -> [TraceNode] {
        if name.hasPrefix("#"), let id = UInt64(name.dropFirst()), let node = node(id) { return [node] }
        return nodes.filter { $0.name == name }
    }

    /// Computations and computeds matching `name`.
    public func computations(named name: String) -> [TraceNode] {
        nodes(named: name).filter(\.isComputation)
    }

    /// The explanation built for `target`, if it was asked for in the options.
    public func why(_ target: String) -> WhyReport? {
        explanations[target]
    }

    /// Names of computations that resemble `name` (for "did you mean").
    public func suggestions(for name: String, limit: Int = 3) -> [String] {
        let lowered = name.lowercased()
        var seen = Set<String>()
        var scored: [(score: Int, name: String)] = []
        for node in nodes where node.isComputation && seen.insert(node.name).inserted {
            let candidate = node.name.lowercased()
            let score: Int
            if candidate.contains(lowered) || lowered.contains(candidate) {
                score = 0
            } else {
                score = Self.editDistance(lowered, candidate)
            }
            if score <= max(2, lowered.count / 3) { scored.append((score, node.name)) }
        }
        return scored.sorted { ($0.score, $0.name) < ($1.score, $1.name) }.prefix(limit).map(\.name)
    }

    private static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = previous
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
