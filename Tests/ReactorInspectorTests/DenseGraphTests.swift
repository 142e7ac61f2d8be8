import ReactorCore
import ReactorTrace
import Testing
@testable import ReactorInspector

extension EventScript {
    /// The graph `dot` found hardest: a source, a chain of `computeds`
    /// computeds each reading the previous one and the source (an edge from the
    /// source across every rank) and an autorun reading the last; `writes`
    /// writes to the source, each rerunning the whole chain.
    static func denseChain(computeds: Int, writes: Int = 2) -> EventScript {
        var script = EventScript()
        let source: UInt64 = 1, effect: UInt64 = 2
        func computed(_ index: Int) -> UInt64 { UInt64(100 + index) }
        script.create(source, .reactiveValue, "source")
        for index in 0..<computeds { script.create(computed(index), .computed, "c\(index)") }
        script.create(effect, .computation, "effect")
        func runChain(_ script: inout EventScript, first: Bool) {
            for index in 0..<computeds {
                script.run(computed(index), first: first) { s in
                    if index > 0 { s.depend(computed(index), computed(index - 1)) }
                    s.depend(computed(index), source)
                }
                if !first && index + 1 < computeds { script.changed(computed(index)) }
            }
        }
        runChain(&script, first: true)
        script.run(effect, first: true) { s in s.depend(effect, computed(computeds - 1)) }
        for _ in 0..<writes {
            script.changed(source)
            for index in 0..<computeds { script.invalidate(computed(index), .dependency, source) }
            script.flush { s in
                runChain(&s, first: false)
                s.changed(computed(computeds - 1))
                s.invalidate(effect, .dependency, computed(computeds - 1))
                s.run(effect) { s in s.depend(effect, computed(computeds - 1)) }
            }
        }
        return script
    }
}

@Suite struct LayoutEstimateTests {
    @Test func aChainThatAlsoReadsTheSourceGrowsWithTheSquare() {
        // source → c0 → c1 → … → c9, and source → every ci.
        var pairs: [(from: Int, to: Int)] = []
        for index in 1...10 {
            pairs.append((0, index))
            if index > 1 { pairs.append((index - 1, index)) }
        }
        let estimate = LayoutEstimate(nodeCount: 11, edges: pairs)
        #expect(estimate.ranks == 11)
        #expect(estimate.edges == 19)
        #expect(estimate.virtualNodes == (1...10).reduce(0) { $0 + $1 - 1 })   // source → ci crosses i − 1 ranks
        #expect(estimate.labelledVirtualNodes == (1...10).reduce(0) { $0 + 2 * $1 - 1 } + 9)
        #expect(estimate.cost(edgeLabels: false) == 11 + 45)
    }

    @Test func sourcesSitNextToTheirReadersAndCyclesAreBroken() {
        // a → b → c → d, and a late source s read only by d; d → b closes a cycle.
        let estimate = LayoutEstimate(nodeCount: 5, edges: [(0, 1), (1, 2), (2, 3), (4, 3), (3, 1)])
        #expect(estimate.rank[4] == estimate.rank[3] - 1)
        #expect(estimate.ranks == 4)
        #expect(estimate.virtualNodes == 1)   // the reversed d → b spans two ranks
    }

    @Test func rankWidthsCountTheEdgesCrossingThem() {
        // Sources s0, s1 → c → d → e, and s1 → e crossing the ranks of c and d.
        let estimate = LayoutEstimate(nodeCount: 5, edges: [(0, 2), (1, 2), (2, 3), (3, 4), (1, 4)])
        #expect(estimate.rank == [0, 0, 1, 2, 3])
        #expect(estimate.virtualNodes == 2)
        #expect(estimate.rankWidthSquares == 2 * 2 + 2 * 2 + 2 * 2 + 1 * 1)
    }
}

@Suite struct DenseGraphTests {
    @Test func theDefaultDrawsWhatFitsInFullAndSaysSo() throws {
        let model = EventScript.denseChain(computeds: 198).model()
        let graph = try DependencyGraph(model: model)
        #expect(graph.totalNodes == 200)
        #expect(graph.layout.quality == .full)
        #expect(graph.layout.estimatedCost <= GraphLayoutBudget().fullQuality)
        #expect(graph.nodes.count < 100)
        let notice = try #require(graph.notice)
        #expect(notice.contains("Showing \(graph.nodes.count) of 200 nodes"))
        #expect(notice.contains("more would take long to lay out"))
        #expect(notice.contains("--all draws everything"))
    }

    /// The shape on which Graphviz's dot ran for minutes at 50 to 200 nodes:
    /// 200 nodes, drawn whole, now finish in well under a second.
    @Test func everythingOfADenseGraphRendersSimplified() throws {
        let model = EventScript.denseChain(computeds: 198).model()
        let (svg, graph) = try GraphRenderer.render(model: model, options: GraphOptions(selection: .all))
        #expect(graph.nodes.count == 200)
        #expect(graph.edges.count == 198 + 197 + 1)
        #expect(graph.layout.quality == .simplified)
        #expect(graph.layout.edgeLabels == false)
        #expect(graph.layout.placementLimit != nil)
        #expect(svg.contains("<title>c197</title>"))
        #expect(!svg.contains(">×2</text>"))   // no edge labels
        #expect(svg.contains("c5 reads source: 2 invalidations"))   // the counts stay in the tooltips
        let notice = try #require(graph.notice)
        #expect(notice.hasPrefix("Simplified the drawing"))
        #expect(notice.contains("200 nodes and 396 edges"))
        #expect(notice.contains("--top N or --focus NAME"))
    }

    @Test func aGraphTooDenseForDotIsPlacedHereAndDrawnByNop() throws {
        let model = EventScript.denseChain(computeds: 98).model()
        let budget = GraphLayoutBudget(fullQuality: 100, layered: 1_000)
        let graph = try DependencyGraph(model: model, options: GraphOptions(selection: .all, layoutBudget: budget))
        #expect(graph.layout.quality == .fast)
        #expect(graph.layout.engine == "nop")
        let dot = DOTWriter(graph: graph).dot()
        #expect(dot.contains("splines=false"))
        #expect(dot.contains("\"c0\" [shape=hexagon"))
        #expect(dot.contains("pos=\""))
        let svg = try GraphRenderer.render(dot: dot, format: .svg, engine: graph.layout.engine)
        #expect(svg.contains("<title>c97</title>"))
        #expect(graph.notice?.hasPrefix("Laid out by a quick heuristic") == true)
    }

    @Test func theFastPlacementKeepsRanksLeftToRightAndLongEdgesInLanes() {
        var pairs: [(from: Int, to: Int)] = []
        for index in 1...30 {
            pairs.append((0, index))
            if index > 1 { pairs.append((index - 1, index)) }
        }
        let estimate = LayoutEstimate(nodeCount: 31, edges: pairs)
        let placement = LayeredPlacement(estimate: estimate, widths: Array(repeating: 60, count: 31))
        let xs = placement.positions.map(\.x)
        #expect(zip(xs.dropFirst(), xs.dropFirst(2)).allSatisfy { $0 < $1 })
        // The chain climbs past the lanes of the source's edges instead of lying on one line with the source.
        let ys = placement.positions.map(\.y)
        #expect(Set(ys.map { Int($0) }).count > 20)
        #expect(placement.topLeft.y >= ys.max()!)
        // Past the lane limit the edges crossing a rank still get room: no two chain nodes level.
        let roomOnly = LayeredPlacement(estimate: estimate, widths: Array(repeating: 60, count: 31), laneLimit: 0)
        #expect(Set(roomOnly.positions.dropFirst().map { Int($0.y) }).count == 30)
    }

    @Test func storesAreClustersOnlyWhenDotDrawsThem() throws {
        let model = EventScript.todos(adds: 3).model()
        let full = try DependencyGraph(model: model)
        #expect(DOTWriter(graph: full).dot().contains("subgraph cluster_store0"))
        let tiny = GraphLayoutBudget(fullQuality: 1, layered: 1)
        let fast = try DependencyGraph(model: model, options: GraphOptions(layoutBudget: tiny))
        let dot = DOTWriter(graph: fast).dot()
        #expect(!dot.contains("subgraph cluster"))
        #expect(dot.contains("label=\"TodoStore.todos"))   // its full name, with no cluster to say the store
        #expect(try GraphRenderer.render(dot: dot, format: .svg, engine: "nop").contains("<svg"))
    }

    @Test func aMissingLayoutEngineFailsClearly() throws {
        #expect(GraphRenderer.hasLayoutEngine("dot"))
        #expect(!GraphRenderer.hasLayoutEngine("no-such-engine"))
        #expect(throws: GraphError.layoutEngineUnavailable("no-such-engine")) {
            try GraphRenderer.render(dot: "digraph { a -> b }", format: .svg, engine: "no-such-engine")
        }
        #expect(GraphError.layoutEngineUnavailable("nop").description.contains("neato_layout"))
    }
}
