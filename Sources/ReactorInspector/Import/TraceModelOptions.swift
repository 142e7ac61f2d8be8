/// What a ``TraceModelBuilder`` records beyond the model every analysis needs.
public struct TraceModelOptions: Sendable {
    /// Also record the graph as it stood at this moment (trace nanoseconds),
    /// for `graph --at`.
    public var snapshotAt: UInt64?
    /// Computations (by name, or `#id`) whose runs `why` explains. Explaining
    /// tracks a causal chain for every change, invalidation and run, so it is
    /// off unless asked for.
    public var explaining: Set<String>
    /// How many runs each explanation lists one by one; all runs are still
    /// counted and grouped by chain.
    public var whyEntryLimit: Int
    /// How many issues are kept with their messages; all are counted.
    public var issueLimit: Int
    /// Build the model as it stood at this moment (trace nanoseconds): events
    /// after it are read but not applied, so counts, live nodes, edges and
    /// values are those of that moment (`state --at`, `graph --at`).
    public var until: UInt64?
    /// Build the model as it stood right after the N-th outermost action
    /// ended (1-based, ``TraceModelBuilder/outermostActionsBegun``), with the
    /// flush its end ran (`state --at action:N`): found and applied in the
    /// same pass, as ``until`` once known. The builder's
    /// ``TraceModelBuilder/actionMoment`` says which action and when.
    public var untilAction: Int?
    /// Keep each node's latest value (``TraceNode/value``). Off by default: a
    /// value event then costs only its count. On for a value history and for explanations.
    public var tracksValues: Bool
    /// Nodes (by name, or `#id`) whose every value is kept in order with the
    /// action that set it (``TraceModel/valueHistory``, for `history`).
    public var valueHistoryOf: String?
    /// Build the causal chain (action → changed → invalidated → ran) of every
    /// change, invalidation and run, and charge each rerun to the action call
    /// at its chain's root, for views that show chains or per-call figures
    /// (the profile behind `report` and `check`). Off by default: the plain
    /// model keeps only each run's root action. On for explanations.
    public var tracksCauses: Bool
    /// What a pass of its own found beforehand (``TraceLookahead/read(path:)``): with it, every
    /// write's old → new follows time order across threads and every node has its final name
    /// from its first mention (`replay`); without it, a write read after a later one of another
    /// thread has no old → new, and a node named late shows as `kind#id` until then.
    public var lookahead: TraceLookahead?
    /// Explain every computation at once (``ExplanationsCollector``), for the index
    /// (``AllExplanations``); each lists ``whyEntryLimit`` runs one by one. Needs
    /// ``tracksCauses`` and ``tracksValues``, as explaining does.
    var explainsEverything = false

    /// Creates options; the defaults build the plain model.
    public init(snapshotAt: UInt64? = nil, explaining: Set<String> = [], whyEntryLimit: Int = 50,
                issueLimit: Int = 100, until: UInt64? = nil, untilAction: Int? = nil, tracksValues: Bool = false,
                valueHistoryOf: String? = nil, tracksCauses: Bool = false) {
        self.snapshotAt = snapshotAt
        self.explaining = explaining
        self.whyEntryLimit = max(0, whyEntryLimit)
        self.issueLimit = max(0, issueLimit)
        self.until = until
        self.untilAction = untilAction
        // Explanations show the values each change went between.
        self.tracksValues = tracksValues || valueHistoryOf != nil || !explaining.isEmpty
        self.valueHistoryOf = valueHistoryOf
        self.tracksCauses = tracksCauses || !explaining.isEmpty
    }
}
