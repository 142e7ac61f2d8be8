import ReactorTraceFormat

/// The part of a trace's dependency graph chosen for drawing: nodes grouped
/// by kind and name (instances of one autorun are one node), dependency edges
/// with their invalidation counts, nesting edges, store clusters, heat.
public struct DependencyGraph: Sendable {
    /// A drawn node.
    public struct Node: Sendable, Equatable {
        /// The node's DOT identifier, which SVG output shows as its `<title>`:
        /// the name, with the kind added when two kinds share a name.
        public internal(set) var key: String
        /// The shared name.
        public let name: String
        /// The kind.
        public let kind: TraceNodeKind
        /// Ids of the instances.
        public var ids: [UInt64]
        /// Runs of all instances (computations).
        public var runs: RunStats
        /// Changes of all instances (dependencies; a computed's new values).
        public var changes: Int
        /// Invalidations of all instances.
        public var invalidations: InvalidationCounts
        /// The store owning it, for properties.
        public var store: String?
        /// The heat metric's value (reruns, nanoseconds or changes).
        public var heat: Double
        /// Its value at the moment drawn (a graph `--at`, from a trace with
        /// values), when it is one instance with a recorded value.
        public var value: String?
        /// Where the first instance with a recorded site was created (`#fileID:#line`).
        public var site: String?
        /// For a layer drawn as one node (``GraphSelection/layers(expanded:)``):
        /// the names of the nodes it stands for; empty for any other node.
        public var members: [String] = []
        /// The dependency layer of a layer node.
        public var layer: Int?

        /// True for nodes that run: autoruns, computeds, operators and bindings.
        public var isComputation: Bool { kind.runs }
    }

    /// A drawn edge: `from` is read by `to`, or `to` is nested in `from`.
    public struct Edge: Sendable, Equatable {
        /// The dependency (or parent computation) key.
        public let from: String
        /// The computation (or nested computation) key.
        public let to: String
        /// True for nesting (parent → child computation), false for dependency.
        public let isNesting: Bool
        /// Invalidations that flowed along it.
        public var invalidations: Int
        /// Runs that recorded it.
        public var depends: Int
    }

    /// The nodes drawn.
    public internal(set) var nodes: [Node]
    /// The edges drawn.
    public internal(set) var edges: [Edge]
    /// The colour metric.
    public let heat: HotOrder
    /// The moment drawn, or nil for the all-time graph.
    public let at: UInt64?
    /// Nodes of the full graph.
    public let totalNodes: Int
    /// Why nodes were left out and how to see them, or nil if none were.
    public let omissionNote: String?
    /// How Graphviz will lay it out: in full, simplified or force-directed,
    /// chosen from the estimated work so that rendering stays within seconds.
    public let layout: GraphLayout

    /// Everything the user should be told about what the drawing leaves out
    /// or simplifies, and how to see more, as one line; nil if nothing.
    public var notice: String? {
        let parts = [omissionNote, layout.note].compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: " ")
    }

    /// Selects the graph to draw from `model`.
    public init(model: TraceModel, options: GraphOptions = GraphOptions()) throws(GraphError) {
        heat = options.heat
        at = options.at
        var snapshot: TraceSnapshot?
        if let at = options.at {
            guard let taken = model.snapshot, taken.timestamp == at else { throw .missingSnapshot(at) }
            snapshot = taken
        }
        var full = Self.fullGraph(model: model, heat: options.heat, snapshot: snapshot)
        totalNodes = full.nodes.count
        let budget = options.layoutBudget
        let chosen: Set<Int>
        var note: String?
        switch options.selection {
        case .all:
            chosen = Set(full.nodes.indices)
        case .automatic:
            let computations = full.nodes.indices.filter { full.nodes[$0].isComputation }
            // Few computations can still read thousands of dependencies: bound both,
            // and the layout work too (a few dense nodes can cost dot more than many sparse ones).
            let everything = Set(full.nodes.indices)
            if computations.count <= options.automaticLimit
                && full.nodes.count <= options.automaticLimit + options.neighbourLimit
                && Self.estimate(everything, in: full).cost(edgeLabels: true) <= budget.fullQuality {
                chosen = everything
            } else {
                let (count, selection) = Self.largestFitting(min(options.automaticLimit, computations.count), in: full,
                                                             neighbourLimit: options.neighbourLimit, budget: budget)
                chosen = selection
                let dense = count < min(options.automaticLimit, computations.count)
                    ? " (more would take long to lay out)" : ""
                note = count == computations.count ? "every computation and its busiest neighbours"
                    : "the \(count) hottest computations and their neighbours\(dense)"
            }
        case let .top(count):
            chosen = Self.hottest(max(0, count), in: full, neighbourLimit: options.neighbourLimit)
            note = "the \(count) hottest computations and their neighbours"
        case let .focus(name, depth):
            guard let start = full.nodes.firstIndex(where: { $0.name == name }) else {
                throw .unknownNode(name: name, suggestions: Self.suggestions(for: name, in: full.nodes))
            }
            chosen = Self.neighbourhood(of: start, depth: max(0, depth), in: full)
            note = "the nodes within \(CountText.of(max(0, depth), "edge")) of '\(name)'"
        case let .layers(expanded):
            full = Self.grouped(full, expanded: expanded)
            chosen = Set(full.nodes.indices)
        }
        if chosen.count < full.nodes.count, let what = note {
            omissionNote = "Showing \(chosen.count) of \(full.nodes.count) nodes: \(what). "
                + "See others with --focus NAME --depth N or --top N; --all draws everything."
        } else {
            omissionNote = nil
        }
        layout = GraphLayout(estimate: Self.estimate(chosen, in: full), budget: budget)
        let kept = full.nodes.indices.filter { chosen.contains($0) }
        let keys = Set(kept.map { full.nodes[$0].key })
        nodes = kept.map { full.nodes[$0] }
        full.edges.removeAll { !keys.contains($0.from) || !keys.contains($0.to) }
        edges = full.edges
    }

    /// The node named `name`, if drawn.
    public func node(named name: String) -> Node? {
        nodes.first { $0.name == name }
    }

    /// The largest heat among drawn computations (for the colour scale).
    public var maximumComputationHeat: Double {
        nodes.filter(\.isComputation).map(\.heat).max() ?? 0
    }

    /// The largest change count among drawn dependencies.
    public var maximumDependencyHeat: Double {
        nodes.filter { !$0.isComputation }.map(\.heat).max() ?? 0
    }
}

// MARK: - Building and selecting

extension DependencyGraph {
    struct Full {
        var nodes: [Node]
        var edges: [Edge]
        /// Neighbour node positions with the edge weight, both directions.
        var adjacency: [[(node: Int, weight: Int)]]
        /// Each edge as node positions, in the direction drawn.
        var pairs: [(from: Int, to: Int)]
    }

    static func drawable(_ kind: TraceNodeKind) -> Bool {
        kind != .store && kind != .subscription
    }

    private static func fullGraph(model: TraceModel, heat: HotOrder, snapshot: TraceSnapshot?) -> Full {
        struct GroupKey: Hashable { var kind: TraceNodeKind; var name: String }
        let stores = Dictionary(model.nodes.filter { $0.kind == .store }.map { ($0.id, $0.name) },
                                uniquingKeysWith: { first, _ in first })
        var used = Set<UInt64>()
        for edge in model.edges where snapshot.map({ $0.edges.contains(edge.key) }) ?? true {
            used.insert(edge.computation)
            used.insert(edge.dependency)
        }
        var position: [GroupKey: Int] = [:]
        var nodeOf: [UInt64: Int] = [:]
        var nodes: [Node] = []
        for node in model.nodes where drawable(node.kind) {
            if let snapshot, !snapshot.liveNodes.contains(node.id) { continue }
            let store = node.owner != 0 ? stores[node.owner] : nil
            guard node.isComputation || used.contains(node.id) || store != nil else { continue }
            let key = GroupKey(kind: node.kind, name: node.name)
            let index: Int
            if let existing = position[key] {
                index = existing
            } else {
                index = nodes.count
                position[key] = index
                nodes.append(Node(key: "n\(index)", name: node.name, kind: node.kind, ids: [], runs: RunStats(),
                                  changes: 0, invalidations: InvalidationCounts(), store: store, heat: 0))
            }
            nodes[index].ids.append(node.id)
            if nodes[index].site == nil { nodes[index].site = node.site }
            nodes[index].runs.merge(node.runs)
            nodes[index].changes += node.changes
            nodes[index].invalidations.merge(node.invalidations)
            // A value is shown for one instance only: several would disagree.
            nodes[index].value = snapshot != nil && nodes[index].ids.count == 1 ? node.value : nil
            nodeOf[node.id] = index
        }
        var nameCounts: [String: Int] = [:]
        for node in nodes { nameCounts[node.name, default: 0] += 1 }
        for index in nodes.indices where nameCounts[nodes[index].name] == 1 {
            nodes[index].key = nodes[index].name
        }
        for index in nodes.indices where nameCounts[nodes[index].name]! > 1 {
            nodes[index].key = "\(nodes[index].name) [\(nodes[index].kind.label)]"
        }
        for index in nodes.indices {
            if nodes[index].isComputation {
                nodes[index].heat = heat == .reruns ? Double(nodes[index].runs.reruns)
                    : Double(nodes[index].runs.totalNanoseconds)
            } else {
                nodes[index].heat = Double(nodes[index].changes)
            }
        }
        var links: [Link] = []
        for edge in model.edges {
            if let snapshot, !snapshot.edges.contains(edge.key) { continue }
            guard let from = nodeOf[edge.dependency], let to = nodeOf[edge.computation], from != to else { continue }
            links.append(Link(from: from, to: to, isNesting: false, invalidations: edge.invalidations, depends: edge.depends))
        }
        for node in model.nodes where node.isComputation && node.parent != 0 {
            guard let child = nodeOf[node.id], let parent = nodeOf[node.parent], child != parent else { continue }
            links.append(Link(from: parent, to: child, isNesting: true, invalidations: node.invalidations.byParent, depends: 0))
        }
        return assembled(nodes, links: links)
    }

    /// An edge between node positions, before edges of one direction and kind are merged.
    struct Link {
        let from: Int
        let to: Int
        let isNesting: Bool
        let invalidations: Int
        let depends: Int
    }

    /// `nodes` with `links` merged into one edge per pair, direction and kind (counts
    /// summed, first appearance first), and the adjacency the selections walk.
    static func assembled(_ nodes: [Node], links: [Link]) -> Full {
        var position: [String: Int] = [:]
        var edges: [Edge] = []
        var pairs: [(from: Int, to: Int)] = []
        for link in links {
            let id = "\(link.from)>\(link.to)>\(link.isNesting)"
            if let existing = position[id] {
                edges[existing].invalidations += link.invalidations
                edges[existing].depends += link.depends
            } else {
                position[id] = edges.count
                edges.append(Edge(from: nodes[link.from].key, to: nodes[link.to].key, isNesting: link.isNesting,
                                  invalidations: link.invalidations, depends: link.depends))
                pairs.append((link.from, link.to))
            }
        }
        var adjacency = [[(node: Int, weight: Int)]](repeating: [], count: nodes.count)
        for (edge, pair) in zip(edges, pairs) {
            let weight = edge.invalidations + edge.depends
            adjacency[pair.from].append((pair.to, weight))
            adjacency[pair.to].append((pair.from, weight))
        }
        return Full(nodes: nodes, edges: edges, adjacency: adjacency, pairs: pairs)
    }

    /// The layout estimate of the nodes `chosen` and the edges between them.
    static func estimate(_ chosen: Set<Int>, in full: Full) -> LayoutEstimate {
        var compact = [Int](repeating: -1, count: full.nodes.count)
        var count = 0
        for node in full.nodes.indices where chosen.contains(node) {
            compact[node] = count
            count += 1
        }
        let pairs = full.pairs.compactMap { pair -> (from: Int, to: Int)? in
            let from = compact[pair.from], to = compact[pair.to]
            return from >= 0 && to >= 0 ? (from, to) : nil
        }
        return LayoutEstimate(nodeCount: count, edges: pairs)
    }

    /// The hottest `limit` computations and their neighbours, or as many as
    /// fit the full-quality budget (binary search: the cost grows with the count).
    private static func largestFitting(_ limit: Int, in full: Full, neighbourLimit: Int,
                                       budget: GraphLayoutBudget) -> (count: Int, chosen: Set<Int>) {
        func fits(_ selection: Set<Int>) -> Bool {
            estimate(selection, in: full).cost(edgeLabels: true) <= budget.fullQuality
        }
        let widest = hottest(limit, in: full, neighbourLimit: neighbourLimit)
        guard limit > 1, !fits(widest) else { return (limit, widest) }
        var best = (count: 1, chosen: hottest(1, in: full, neighbourLimit: neighbourLimit))
        var low = 2, high = limit - 1
        while low <= high {
            let middle = (low + high) / 2
            let selection = hottest(middle, in: full, neighbourLimit: neighbourLimit)
            if fits(selection) {
                best = (middle, selection)
                low = middle + 1
            } else {
                high = middle - 1
            }
        }
        return best
    }

    private static func hottest(_ count: Int, in full: Full, neighbourLimit: Int) -> Set<Int> {
        let ranked = full.nodes.indices.filter { full.nodes[$0].isComputation }
            .sorted { (full.nodes[$0].heat, full.nodes[$1].name) > (full.nodes[$1].heat, full.nodes[$0].name) }
        var chosen = Set(ranked.prefix(count))
        var candidates: [(node: Int, weight: Int)] = []
        for node in chosen {
            for neighbour in full.adjacency[node] where !chosen.contains(neighbour.node) {
                candidates.append(neighbour)
            }
        }
        var best: [Int: Int] = [:]
        for candidate in candidates { best[candidate.node] = max(best[candidate.node] ?? 0, candidate.weight) }
        let neighbours = best.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.prefix(neighbourLimit)
        for neighbour in neighbours { chosen.insert(neighbour.key) }
        return chosen
    }

    private static func neighbourhood(of start: Int, depth: Int, in full: Full) -> Set<Int> {
        var chosen: Set<Int> = [start]
        var frontier = [start]
        for _ in 0..<depth {
            var next: [Int] = []
            for node in frontier {
                for neighbour in full.adjacency[node] where chosen.insert(neighbour.node).inserted {
                    next.append(neighbour.node)
                }
            }
            frontier = next
        }
        return chosen
    }

    /// Each node's dependency layer: 0 for what no computation's run
    /// produced (properties, subjects, dependencies), one more than the
    /// deepest layer a computation reads from otherwise (nesting edges do not
    /// count). A cycle, which a trace can hold across runs, is broken at the
    /// nodes it leaves unplaced, which take one more than the deepest layer placed.
    static func layers(of full: Full) -> [Int] {
        let count = full.nodes.count
        var incoming = [Int](repeating: 0, count: count)
        var outgoing = [[Int]](repeating: [], count: count)
        for (edge, pair) in zip(full.edges, full.pairs) where !edge.isNesting {
            incoming[pair.to] += 1
            outgoing[pair.from].append(pair.to)
        }
        var layer = [Int](repeating: 0, count: count)
        var placed = [Bool](repeating: false, count: count)
        var ready = (0..<count).filter { incoming[$0] == 0 }
        while let node = ready.popLast() {
            placed[node] = true
            for next in outgoing[node] {
                layer[next] = max(layer[next], layer[node] + 1)
                incoming[next] -= 1
                if incoming[next] == 0 { ready.append(next) }
            }
        }
        let deepest = (0..<count).filter { placed[$0] }.map { layer[$0] }.max() ?? 0
        for node in 0..<count where !placed[node] { layer[node] = deepest + 1 }
        return layer
    }

    /// `full` with the computations of each layer not in `expanded` (and
    /// holding more than one) drawn as one node; properties of stores keep
    /// their clusters. Edges are merged between the nodes that remain.
    static func grouped(_ full: Full, expanded: Set<Int>) -> Full {
        let layer = layers(of: full)
        var members: [Int: [Int]] = [:]
        for node in full.nodes.indices where full.nodes[node].isComputation && !expanded.contains(layer[node]) {
            members[layer[node], default: []].append(node)
        }
        members = members.filter { $0.value.count > 1 }
        var nodes: [Node] = []
        var position = [Int](repeating: -1, count: full.nodes.count)
        for node in full.nodes.indices where members[layer[node]] == nil || !full.nodes[node].isComputation {
            position[node] = nodes.count
            nodes.append(full.nodes[node])
        }
        for (level, group) in members.sorted(by: { $0.key < $1.key }) {
            let parts = group.map { full.nodes[$0] }
            var kinds: [TraceNodeKind: Int] = [:]
            for part in parts { kinds[part.kind, default: 0] += 1 }
            let kind = kinds.max { ($0.value, $1.key.rawValue) < ($1.value, $0.key.rawValue) }!.key
            var node = Node(key: "layer \(level)", name: "layer \(level)", kind: kind, ids: parts.flatMap(\.ids),
                            runs: RunStats(), changes: 0, invalidations: InvalidationCounts(), store: nil,
                            heat: parts.map(\.heat).max() ?? 0)
            for part in parts {
                node.runs.merge(part.runs)
                node.changes += part.changes
                node.invalidations.merge(part.invalidations)
            }
            node.members = parts.map(\.name).sorted()
            node.layer = level
            for member in group { position[member] = nodes.count }
            nodes.append(node)
        }
        // A layer whose key a node of the graph already has is told apart by a suffix.
        let taken = Set(nodes.filter { $0.layer == nil }.map(\.key))
        for index in nodes.indices where nodes[index].layer != nil && taken.contains(nodes[index].key) {
            nodes[index].key += " [layer]"
        }
        let links = zip(full.edges, full.pairs).compactMap { edge, pair -> Link? in
            let from = position[pair.from], to = position[pair.to]
            return from == to ? nil : Link(from: from, to: to, isNesting: edge.isNesting,
                                           invalidations: edge.invalidations, depends: edge.depends)
        }
        return assembled(nodes, links: links)
    }

    private static func suggestions(for name: String, in nodes: [Node]) -> [String] {
        let lowered = name.lowercased()
        return nodes.map(\.name).filter { $0.lowercased().contains(lowered) || lowered.contains($0.lowercased()) }
            .prefix(3).map { $0 }
    }
}
