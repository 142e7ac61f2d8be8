/// An estimate of how much work Graphviz's `dot` does to lay out a graph,
/// made before calling it.
///
/// `dot` puts nodes in ranks and turns every edge that crosses ranks into a
/// chain of virtual nodes, one per rank crossed; its crossing minimisation,
/// its network simplex for x coordinates and its spline routing all work on
/// that expanded graph. So the cost is not the node count: a chain of `n`
/// computeds that each also read one source has `n` nodes but about `n²/2`
/// virtual nodes (the source's edges cross every rank), and `dot` spent
/// minutes on it at 200 nodes. Edge labels double it: `dot` gives each
/// label a rank of its own, so every edge crosses twice as many ranks.
///
/// Ranks are estimated as `dot` starts them: cycles broken by reversing back
/// edges, then the longest path from the sources, with each source moved up
/// next to its nearest successor (where `dot`'s network simplex puts it).
struct LayoutEstimate: Sendable, Equatable {
    /// Each node's estimated rank.
    let rank: [Int]
    /// Each node's successors, every edge oriented from lower to higher rank (back edges reversed).
    let forward: [[Int]]
    /// Real nodes.
    let nodes: Int
    /// Edges (self-loops excluded).
    let edges: Int
    /// Ranks in the estimated layering.
    let ranks: Int
    /// Σ (span − 1) over edges: virtual nodes without edge labels.
    let virtualNodes: Int
    /// Σ (2·span − 1) over edges: virtual nodes with edge labels (label node included).
    let labelledVirtualNodes: Int
    /// Σ width² over ranks (real and virtual nodes), without edge labels: what
    /// `dot`'s crossing minimisation grows with. Its first pass (ordering, then
    /// transposing neighbours until nothing improves) runs whatever `mclimit`
    /// says: 30,000 nodes in 45 ranks took it two minutes.
    let rankWidthSquares: Int

    /// Nodes plus virtual nodes: the size of the graph `dot` works on.
    func cost(edgeLabels: Bool) -> Int {
        nodes + (edgeLabels ? labelledVirtualNodes : virtualNodes)
    }

    /// Estimates the layout of `nodeCount` nodes joined by `edges` (pairs of node positions, from → to).
    init(nodeCount: Int, edges pairs: [(from: Int, to: Int)]) {
        nodes = nodeCount
        var successors = [[Int]](repeating: [], count: nodeCount)
        var edgeCount = 0
        for pair in pairs where pair.from != pair.to {
            successors[pair.from].append(pair.to)
            edgeCount += 1
        }
        edges = edgeCount
        let order = Self.acyclicOrder(successors)
        // Orient every edge along the order (this reverses the back edges, as dot does).
        var position = [Int](repeating: 0, count: nodeCount)
        for (index, node) in order.enumerated() { position[node] = index }
        var forward = [[Int]](repeating: [], count: nodeCount)
        var hasPredecessor = [Bool](repeating: false, count: nodeCount)
        for node in 0..<nodeCount {
            for next in successors[node] {
                let (from, to) = position[node] < position[next] ? (node, next) : (next, node)
                forward[from].append(to)
                hasPredecessor[to] = true
            }
        }
        var rank = [Int](repeating: 0, count: nodeCount)
        for node in order {
            for next in forward[node] where rank[next] < rank[node] + 1 { rank[next] = rank[node] + 1 }
        }
        // A source sits just before its nearest successor, not at rank 0.
        for node in order.reversed() where !hasPredecessor[node] && !forward[node].isEmpty {
            rank[node] = forward[node].map { rank[$0] }.min()! - 1
        }
        var plain = 0, labelled = 0
        ranks = (rank.max() ?? -1) + 1
        // Rank widths: real nodes, plus a difference array for the ranks each edge crosses.
        var width = [Int](repeating: 0, count: ranks + 1)
        for node in 0..<nodeCount {
            width[rank[node]] += 1
        }
        var crossing = [Int](repeating: 0, count: ranks + 1)
        for node in 0..<nodeCount {
            for next in forward[node] {
                let span = max(1, rank[next] - rank[node])
                plain += span - 1
                labelled += 2 * span - 1
                if span > 1 {
                    crossing[rank[node] + 1] += 1
                    crossing[rank[next]] -= 1
                }
            }
        }
        var running = 0, squares = 0
        for index in 0..<ranks {
            running += crossing[index]
            let total = width[index] + running
            squares += total * total
        }
        virtualNodes = plain
        labelledVirtualNodes = labelled
        rankWidthSquares = squares
        self.rank = rank
        self.forward = forward
    }

    /// The nodes in an order in which every edge goes forward except the
    /// back edges of a depth-first search (iterative: chains may be long).
    private static func acyclicOrder(_ successors: [[Int]]) -> [Int] {
        let count = successors.count
        var visited = [Bool](repeating: false, count: count)
        var finished: [Int] = []
        finished.reserveCapacity(count)
        var stack: [(node: Int, next: Int)] = []
        for root in 0..<count where !visited[root] {
            visited[root] = true
            stack.append((root, 0))
            while let top = stack.last {
                let edges = successors[top.node]
                if top.next < edges.count {
                    stack[stack.count - 1].next += 1
                    let next = edges[top.next]
                    if !visited[next] {
                        visited[next] = true
                        stack.append((next, 0))
                    }
                } else {
                    finished.append(top.node)
                    stack.removeLast()
                }
            }
        }
        return finished.reversed()   // reverse postorder: a topological order of the DAG without back edges
    }
}
