/// How Graphviz lays out a selected graph, chosen from an estimate of the
/// work so that a render stays within seconds however large or dense the graph.
///
/// `dot` turns every edge that crosses ranks into a chain of virtual nodes;
/// on a dense graph (a chain of computeds that also read one source) these
/// grow with the square of the node count, edge labels double them, and
/// `dot`'s passes over them took minutes at 100 nodes. So:
///
/// - ``Quality/full``: small enough for everything — edge labels, `dot`'s
///   complete crossing minimisation and placement.
/// - ``Quality/simplified``: still `dot`, but without edge labels (counts stay
///   in each edge's tooltip and pen width), with the placement's network
///   simplex (`nslimit`) and the crossing minimisation (`mclimit`) bounded.
/// - ``Quality/fast``: too large for `dot` at all (its crossing minimisation
///   alone took two minutes on 30,000 nodes, whatever `mclimit` said): ranks
///   and order are computed here in linear time (``LayeredPlacement``) and
///   Graphviz's `nop` engine only draws, with straight edges.
///
/// (Graphviz's `sfdp` was measured as the fallback and left out: 2 to 10 s on
/// 3,000 nodes and over a minute on 30,000, with libgvc 2.43.)
public struct GraphLayout: Sendable, Equatable {
    /// How much of the drawing survives.
    public enum Quality: String, Sendable, Equatable {
        /// Everything.
        case full
        /// `dot` without edge labels, its optimisation bounded.
        case simplified
        /// Ranks and order computed here, straight edges, no edge labels.
        case fast
    }

    /// The chosen quality.
    public let quality: Quality
    /// The Graphviz layout engine: `dot`, or `nop` (positions given) for ``Quality/fast``.
    public let engine: String
    /// Whether edges carry their invalidation counts as labels.
    public let edgeLabels: Bool
    /// `dot`'s `nslimit` (iterations of the x-placement network simplex per
    /// node), or nil for no limit.
    public let placementLimit: Double?
    /// `dot`'s `mclimit` (scales the crossing minimisation), or nil for 1.
    public let crossingLimit: Double?
    /// Nodes plus estimated virtual nodes of the layout as drawn.
    public let estimatedCost: Int
    /// The shape it was chosen for.
    let estimate: LayoutEstimate

    /// The layout for a graph of `estimate`'s shape under `budget`.
    init(estimate: LayoutEstimate, budget: GraphLayoutBudget) {
        self.estimate = estimate
        let labelled = estimate.cost(edgeLabels: true), plain = estimate.cost(edgeLabels: false)
        if labelled <= budget.fullQuality {
            quality = .full
            engine = "dot"
            edgeLabels = true
            estimatedCost = labelled
        } else if plain <= budget.layered && estimate.rankWidthSquares <= budget.layeredWidthSquares {
            quality = .simplified
            engine = "dot"
            edgeLabels = false
            estimatedCost = plain
        } else {
            quality = .fast
            engine = "nop"
            edgeLabels = false
            estimatedCost = plain
        }
        guard engine == "dot" else {
            placementLimit = nil
            crossingLimit = nil
            return
        }
        // Each network simplex iteration can walk the whole graph: bound
        // iterations × size. 0 keeps dot's first feasible placement.
        let iterations = Double(budget.placementWork) / Double(max(1, estimatedCost))
        let perNode = iterations / Double(max(1, estimate.nodes))
        placementLimit = quality == .full && iterations >= Double(estimatedCost) * 4 ? nil : Self.rounded(perNode)
        // Crossing minimisation grows faster than Σ width²; its later iterations scale with mclimit.
        let crossing = Double(budget.crossingWork) / Double(max(1, estimate.rankWidthSquares))
        crossingLimit = quality == .full || crossing >= 1 ? nil : Self.rounded(crossing)
    }

    /// Two significant digits, so the DOT stays readable.
    private static func rounded(_ value: Double) -> Double {
        guard value > 0 else { return 0 }
        var scale = 1.0
        while value * scale < 10 { scale *= 10 }
        return (value * scale).rounded(.down) / scale
    }

    /// "300 nodes and 596 edges (about 44553 nodes once edges are routed across ranks)".
    private var size: String {
        "\(estimate.nodes) nodes and \(estimate.edges) edges (about \(estimatedCost) nodes once edges are routed across ranks)"
    }

    /// One sentence for the user when the drawing was simplified, with how to
    /// see more; nil at full quality.
    var note: String? {
        switch quality {
        case .full:
            return nil
        case .simplified:
            return "Simplified the drawing to keep it fast: no edge labels (hover an edge for its counts) and a bounded "
                + "layout search, for \(size). --top N or --focus NAME draws part of it in full."
        case .fast:
            return "Laid out by a quick heuristic (straight edges, no edge labels, more crossings): \(size) "
                + "are too many for Graphviz's dot. --top N or --focus NAME draws part of it in full."
        }
    }
}
