/// Node positions for graphs too large for Graphviz's `dot`, computed here in
/// time linear in the drawing: the ranks of the ``LayoutEstimate`` left to
/// right; a long edge gets a thin virtual node in each rank it crosses, as in
/// `dot`, so that it keeps a lane of its own instead of running over the nodes;
/// each rank is ordered by a few barycenter sweeps (each node moves towards
/// the mean position of its neighbours in the rank before, then in the rank
/// after) and centred vertically. Graphviz's `nop` engine then only draws: it
/// keeps the positions and joins the nodes with straight edges.
///
/// It is `dot`'s picture without `dot`'s optimisation: more crossings and no
/// edge routing, but the same left-to-right reading, in seconds instead of
/// minutes for tens of thousands of nodes.
struct LayeredPlacement {
    /// Real node centres in points (Graphviz's `pos`; y grows upwards).
    let positions: [SIMD2<Double>]
    /// The top left corner of the drawing, where the legend goes.
    let topLeft: SIMD2<Double>

    /// Vertical room for a node: two label lines, padding and dot's default `nodesep`.
    static let rowHeight = 52.0
    /// Vertical room for a lane of a long edge.
    static let laneHeight = 10.0
    /// Horizontal gap between ranks (dot's `ranksep` of 0.7 inch).
    static let rankGap = 50.0
    /// Beyond this many virtual nodes long edges get no lane nodes, only room
    /// (memory and time stay bounded: a lane node costs an adjacency list).
    static let laneLimit = 400_000

    /// Places the nodes of `estimate`; `widths` are the nodes' estimated widths in points.
    init(estimate: LayoutEstimate, widths: [Double], sweeps: Int = 4, laneLimit: Int = Self.laneLimit) {
        let real = estimate.rank.count
        var rank = estimate.rank
        var successors = estimate.forward
        let lanes = estimate.virtualNodes <= laneLimit
        if lanes {
            // Split each long edge into a chain through one virtual node per rank crossed.
            for node in 0..<real {
                let targets = successors[node]
                successors[node] = []
                for target in targets {
                    var previous = node
                    for crossed in stride(from: rank[node] + 1, to: rank[target], by: 1) {
                        let lane = rank.count
                        rank.append(crossed)
                        successors.append([])
                        successors[previous].append(lane)
                        previous = lane
                    }
                    successors[previous].append(target)
                }
            }
        }
        let count = rank.count
        var predecessors = [[Int]](repeating: [], count: count)
        for node in 0..<count {
            for next in successors[node] { predecessors[next].append(node) }
        }
        var layers = [[Int]](repeating: [], count: estimate.ranks)
        for node in 0..<count { layers[rank[node]].append(node) }
        // Position within its rank, centred on 0 so that ranks of different widths line up.
        var place = [Double](repeating: 0, count: count)
        func settle(_ layer: [Int]) {
            let middle = Double(layer.count - 1) / 2
            for (index, node) in layer.enumerated() { place[node] = Double(index) - middle }
        }
        layers.forEach(settle)
        for sweep in 0..<sweeps {
            let downwards = sweep.isMultiple(of: 2)
            let order = downwards ? Array(layers.indices) : layers.indices.reversed()
            for index in order {
                var keyed: [(key: Double, offset: Int, node: Int)] = []
                keyed.reserveCapacity(layers[index].count)
                for (offset, node) in layers[index].enumerated() {
                    let neighbours = downwards ? predecessors[node] : successors[node]
                    var key = place[node]
                    if !neighbours.isEmpty {
                        key = neighbours.reduce(0) { $0 + place[$1] } / Double(neighbours.count)
                    }
                    keyed.append((key, offset, node))
                }
                // Ties keep the previous order, so the sweeps settle.
                keyed.sort { ($0.key, $0.offset) < ($1.key, $1.offset) }
                layers[index] = keyed.map(\.node)
                settle(layers[index])
            }
        }
        // Without lane nodes, still leave room for the edges crossing each rank
        // (counted with a difference array), so that a long edge does not run
        // along a row of nodes: the rank's nodes go below their lanes.
        var crossing = [Int](repeating: 0, count: estimate.ranks + 1)
        if !lanes {
            for node in 0..<real {
                for target in estimate.forward[node] where rank[target] - rank[node] > 1 {
                    crossing[rank[node] + 1] += 1
                    crossing[rank[target]] -= 1
                }
            }
            for index in crossing.indices.dropFirst() { crossing[index] += crossing[index - 1] }
        }
        var positions = [SIMD2<Double>](repeating: .zero, count: real)
        var left = 0.0
        var top = 0.0
        for (index, layer) in layers.enumerated() {
            let width = layer.lazy.filter { $0 < real }.map { widths[$0] }.max() ?? 0
            let lanesHeight = Double(crossing[index]) * Self.laneHeight
            let height = layer.reduce(lanesHeight) { $0 + ($1 < real ? Self.rowHeight : Self.laneHeight) }
            // Top to bottom in rank order; lanes take thin slices.
            var y = height / 2 - lanesHeight
            for node in layer {
                let room = node < real ? Self.rowHeight : Self.laneHeight
                if node < real { positions[node] = SIMD2(left + width / 2, y - room / 2) }
                y -= room
            }
            top = max(top, height / 2)
            left += width + Self.rankGap
        }
        self.positions = positions
        topLeft = SIMD2(0, top)
    }

    /// A node's width in points, estimated from its label's longest line
    /// (`lines` as DOT writes them; Helvetica at 10 points
    /// averages under 6 points a character), plus the margins of its shape.
    static func width(of lines: [String], hexagon: Bool) -> Double {
        let longest = lines.map(\.count).max() ?? 0
        let text = Double(longest) * 6 + 16
        return max(54, hexagon ? text * 1.3 : text * 1.1)
    }
}
