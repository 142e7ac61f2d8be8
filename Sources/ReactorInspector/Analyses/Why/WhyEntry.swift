import ReactorTraceFormat

/// One run (or stop) of an explained computation, with its causal chain.
public struct WhyEntry: Sendable, Equatable {
    /// What happened to the computation.
    public enum Event: String, Sendable, Equatable {
        /// It ran for the first time (a new instance).
        case firstRun = "first-run"
        /// It reran.
        case rerun
        /// It was stopped: ``WhyEntry/stopCause`` says by what.
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
    /// For a stop, what stopped it: its parent's rerun, `stop()`, runaway or an error.
    public let stopCause: InvalidationCause?

    /// Creates an entry.
    public init(timestamp: UInt64, node: UInt64, event: Event, chain: [WhyStep], stopCause: InvalidationCause? = nil) {
        self.timestamp = timestamp
        self.node = node
        self.event = event
        self.chain = chain
        self.stopCause = stopCause
    }
}
