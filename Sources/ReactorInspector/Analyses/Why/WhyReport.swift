import ReactorTraceFormat

/// Why a computation ran each time: the causal chain of each run, e.g.
/// action `addTodo(_:)` → `TodoStore.todos` changed → computed `visibleTodos`
/// invalidated → recomputed → autorun `list` reran.
///
/// Built in the model's streaming pass when the name is in
/// ``TraceModelOptions/explaining``; read it with ``TraceModel/why(_:)``.
public struct WhyReport: Sendable, Equatable {
    /// The name asked for.
    public let target: String
    /// The kind of the matching computations (of the first, if they differ).
    public var kind: TraceNodeKind?
    /// Ids of the instances with that name (a nested autorun gets a new one per parent run).
    public var instances: [UInt64]
    /// Where the first instance with a recorded site was created (`#fileID:#line`); nil when none was recorded.
    public var site: String?
    /// First runs of those instances.
    public var firstRuns: Int
    /// Runs after the first.
    public var reruns: Int
    /// Stops, whatever stopped them.
    public var stops: Int
    /// Stops by what stopped them, keyed by ``ReactorCore/InvalidationCause/label``
    /// (`parent`, `stop`, `runaway`, `error`).
    public var stopsByCause: [String: Int]
    /// The first runs and stops, one by one, up to the options' limit.
    public var entries: [WhyEntry]
    /// Runs and stops not listed in ``entries``.
    public var omittedEntries: Int
    /// Every run and stop grouped by chain, most frequent first.
    public var patterns: [WhyPattern]
    /// Runs and stops whose chains were not grouped (beyond 500 distinct chains).
    public var ungroupedEntries: Int
    /// Issues about it: reported on it, or cycles through it (see ``attachIssues(_:)``).
    public var issues: [TraceIssueRecord]

    /// Creates an empty report for `target`.
    public init(target: String) {
        self.target = target
        kind = nil
        instances = []
        site = nil
        firstRuns = 0
        reruns = 0
        stops = 0
        stopsByCause = [:]
        entries = []
        omittedEntries = 0
        patterns = []
        ungroupedEntries = 0
        issues = []
    }

    /// True when no computation in the trace has the name.
    public var isUnknown: Bool { instances.isEmpty }

    /// The computations an explanation of `target` is about, in table order: named `target`, or whose `#id` it is.
    static func computations(matching target: String, in nodes: [TraceNode]) -> [TraceNode] {
        nodes.filter { ($0.name == target || "#\($0.id)" == target) && $0.isComputation }
    }

    /// Takes the kind, instances and site from the computations `matching` the target.
    mutating func describe(_ matching: [TraceNode]) {
        kind = matching.first?.kind
        instances = matching.map(\.id)
        site = matching.lazy.compactMap(\.site).first
    }
}
