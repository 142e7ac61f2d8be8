/// How much layout work a render may cost, in the units of Graphviz's `dot`
/// (see ``GraphLayout``): nodes plus the virtual nodes it adds where edges
/// cross ranks, and Σ width² over ranks for its crossing minimisation. The
/// defaults keep a render within about a second or two on one core (measured
/// in Benchmarks/README.md, "Graph rendering"); the automatic selection draws
/// no more than ``fullQuality``.
public struct GraphLayoutBudget: Sendable, Equatable {
    /// Up to this cost (with edge labels) the graph is drawn in full: edge
    /// labels, `dot`'s complete crossing minimisation and placement.
    public var fullQuality: Int
    /// Up to this cost (without edge labels) the graph is still drawn by
    /// `dot`, simplified; above it, or above ``layeredWidthSquares``, by the
    /// linear-time ``LayeredPlacement``.
    public var layered: Int
    /// Up to this Σ width² over ranks the graph is still drawn by `dot`.
    public var layeredWidthSquares: Int
    /// Network simplex iterations times graph size that `dot`'s x-coordinate
    /// placement may spend (`nslimit` is derived from it).
    public var placementWork: Int
    /// Σ width² up to which `dot` runs its full crossing minimisation
    /// (`mclimit` scales it down above).
    public var crossingWork: Int

    /// Creates a budget.
    public init(fullQuality: Int = 2_500, layered: Int = 150_000, layeredWidthSquares: Int = 3_000_000,
                placementWork: Int = 1_000_000, crossingWork: Int = 1_500_000) {
        self.fullQuality = max(1, fullQuality)
        self.layered = max(self.fullQuality, layered)
        self.layeredWidthSquares = max(1, layeredWidthSquares)
        self.placementWork = max(0, placementWork)
        self.crossingWork = max(1, crossingWork)
    }
}
