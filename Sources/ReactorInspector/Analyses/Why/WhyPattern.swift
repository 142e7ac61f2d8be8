/// Runs of an explained computation that share one causal chain (arguments
/// and times aside).
public struct WhyPattern: Sendable, Equatable {
    /// The chain, root first, without action arguments.
    public let chain: [WhyStep]
    /// How many runs or stops followed it.
    public let count: Int

    /// Creates a pattern.
    public init(chain: [WhyStep], count: Int) {
        self.chain = chain
        self.count = count
    }
}
