/// One run (or stop) of an explained computation, with its causal chain.
public struct WhyEntry: Sendable, Equatable {
    /// What happened to the computation.
    public enum Event: String, Sendable, Equatable {
        /// It ran for the first time (a new instance).
        case firstRun = "first-run"
        /// It reran.
        case rerun
        /// It was stopped (by its parent's invalidation or `stop()`).
        case stopped
    }

    /// When it happened.
    public let timestamp: UInt64
    /// The instance's node id.
    public let node: UInt64
    /// What happened.
    public let event: Event
    /// The causal chain, root first, ending with this run or stop.
    public let chain: [WhyStep]

    /// Creates an entry.
    public init(timestamp: UInt64, node: UInt64, event: Event, chain: [WhyStep]) {
        self.timestamp = timestamp
        self.node = node
        self.event = event
        self.chain = chain
    }
}
