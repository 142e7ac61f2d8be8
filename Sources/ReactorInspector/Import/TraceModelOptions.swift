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

    /// Creates options; the defaults build the plain model.
    public init(snapshotAt: UInt64? = nil, explaining: Set<String> = [], whyEntryLimit: Int = 50,
                issueLimit: Int = 100) {
        self.snapshotAt = snapshotAt
        self.explaining = explaining
        self.whyEntryLimit = max(0, whyEntryLimit)
        self.issueLimit = max(0, issueLimit)
    }
}
