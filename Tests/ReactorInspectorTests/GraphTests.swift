import ReactorCore
import ReactorTrace
import Testing
@testable import ReactorInspector

@Suite struct GraphSelectionTests {
    @Test func allTimeGraphGroupsNodesAndCountsInvalidations() throws {
        let graph = try DependencyGraph(model: EventScript.todos(adds: 3).model())
        #expect(Set(graph.nodes.map(\.name)) == ["TodoStore.todos", "TodoStore.filter", "visibleTodos", "list", "count"])
        #expect(graph.omissionNote == nil)
        let todos = try #require(graph.node(named: "TodoStore.todos"))
        let visible = try #require(graph.node(named: "visibleTodos"))
        #expect(todos.store == "TodoStore")
        let edge = try #require(graph.edges.first { $0.from == todos.key && $0.to == visible.key })
        #expect(edge.invalidations == 3)
        #expect(edge.depends == 5)
    }

    @Test func nestingEdgesJoinParentAndChild() throws {
        let graph = try DependencyGraph(model: EventScript.nested().model())
        let outer = try #require(graph.node(named: "outer"))
        let inner = try #require(graph.node(named: "inner"))
        #expect(inner.ids == [11, 13])
        #expect(graph.edges.contains { $0.isNesting && $0.from == outer.key && $0.to == inner.key })
    }

    @Test func focusKeepsTheNeighbourhood() throws {
        let model = EventScript.todos(adds: 1).model()
        let near = try DependencyGraph(model: model, options: GraphOptions(selection: .focus(name: "list", depth: 1)))
        #expect(Set(near.nodes.map(\.name)) == ["list", "visibleTodos"])
        #expect(near.omissionNote?.contains("Showing 2 of 5 nodes") == true)
        let far = try DependencyGraph(model: model, options: GraphOptions(selection: .focus(name: "list", depth: 2)))
        #expect(Set(far.nodes.map(\.name)) == ["list", "visibleTodos", "TodoStore.todos", "TodoStore.filter"])
    }

    @Test func unknownFocusNameIsAnErrorWithSuggestions() {
        let model = EventScript.todos().model()
        #expect(throws: GraphError.unknownNode(name: "lis", suggestions: ["list"])) {
            try DependencyGraph(model: model, options: GraphOptions(selection: .focus(name: "lis", depth: 1)))
        }
    }

    @Test func topKeepsTheHottestAndTheirNeighbours() throws {
        let model = EventScript.wide(computations: 400).model()
        let graph = try DependencyGraph(model: model, options: GraphOptions(selection: .top(5)))
        let computations = graph.nodes.filter(\.isComputation)
        #expect(computations.count == 5)
        #expect(Set(computations.map(\.name)) == ["c399", "c398", "c397", "c396", "c395"])
        #expect(graph.nodes.count == 10)  // each reads its own source
        #expect(graph.totalNodes == 800)
    }

    @Test func automaticSelectionLimitsLargeGraphsAndSaysSo() throws {
        let model = EventScript.wide(computations: 400).model()
        let graph = try DependencyGraph(model: model)
        #expect(graph.nodes.filter(\.isComputation).count == 150)
        let note = try #require(graph.omissionNote)
        #expect(note.contains("Showing 300 of 800 nodes"))
        #expect(note.contains("--focus NAME --depth N"))
        let all = try DependencyGraph(model: model, options: GraphOptions(selection: .all))
        #expect(all.nodes.count == 800)
    }

    @Test func automaticSelectionBoundsDependenciesToo() throws {
        var script = EventScript()
        script.create(1, .computation, "reader")
        script.run(1, first: true) { s in
            for index in 0..<1_000 {
                s.create(UInt64(100 + index), .dependency, "d\(index)")
                s.depend(1, UInt64(100 + index))
            }
        }
        let graph = try DependencyGraph(model: script.model())
        #expect(graph.totalNodes == 1_001)
        #expect(graph.nodes.count == 301)
        #expect(graph.omissionNote?.contains("Showing 301 of 1001 nodes: every computation and its busiest neighbours") == true)
    }

    @Test func graphAtAMomentUsesTheSnapshot() throws {
        var script = EventScript()
        script.create(1, .dependency, "a")
        script.create(2, .dependency, "b")
        script.create(3, .computation, "reader")
        script.run(3, first: true) { s in s.depend(3, 1) }
        let moment = script.time
        script.emit(.changed(dependency: 1), after: 5)
        script.invalidate(3, .dependency, 1)
        script.run(3) { s in s.depend(3, 2) }
        let model = script.model(TraceModelOptions(snapshotAt: moment))
        let then = try DependencyGraph(model: model, options: GraphOptions(at: moment))
        #expect(then.edges.count == 1)
        #expect(then.edges.first?.from == then.node(named: "a")?.key)
        let allTime = try DependencyGraph(model: model)
        #expect(allTime.edges.count == 2)
        #expect(throws: GraphError.missingSnapshot(1)) {
            try DependencyGraph(model: model, options: GraphOptions(at: 1))
        }
    }

    @Test func heatScaleIsLogarithmicAndBounded() {
        let scale = HeatScale(maximum: 1_000, colors: HeatScale.warm)
        #expect(scale.level(of: 0) == 0)
        #expect(scale.level(of: 1_000) == 8)
        #expect(scale.level(of: 30) > 3)
        #expect(scale.lowerBound(of: 0) == 0)
        #expect(scale.level(of: scale.lowerBound(of: 4) + 0.01) == 4)
    }
}

@Suite struct GraphRenderingTests {
    @Test func dotHasShapesClustersLabelsAndTooltips() throws {
        let graph = try DependencyGraph(model: EventScript.todos(adds: 3).model())
        let dot = DOTWriter(graph: graph, title: "todos").dot()
        #expect(dot.contains("subgraph cluster_store0"))
        #expect(dot.contains("label=\"store TodoStore\""))
        #expect(dot.contains("shape=hexagon"))
        #expect(dot.contains("shape=box"))
        #expect(dot.contains("shape=ellipse"))
        #expect(dot.contains("label=\"×3\""))
        #expect(dot.contains("tooltip=\"list (autorun)\\nruns: 4 (3 reruns)"))
        #expect(dot.contains("\"legend\" [shape=plaintext"))
        #expect(dot.contains("\"visibleTodos\" [shape=hexagon"))
        #expect(dot.contains("fill: reruns"))
    }

    @Test func rendersSVGInProcess() throws {
        let (svg, graph) = try GraphRenderer.render(model: EventScript.todos(adds: 3).model(), format: .svg)
        #expect(graph.nodes.count == 5)
        #expect(svg.contains("<svg"))
        #expect(svg.contains("<title>visibleTodos</title>"))
        #expect(svg.contains("<title>TodoStore.todos&#45;&gt;visibleTodos</title>"))
        #expect(svg.contains(">visibleTodos</text>"))
        #expect(svg.contains("xlink:title=\"list (autorun)"))
        #expect(svg.contains("store TodoStore"))
        #expect(svg.contains("fill=\"#"))
    }

    @Test func rendersNestingDashedAndDotFormat() throws {
        let (svg, _) = try GraphRenderer.render(model: EventScript.nested().model(), format: .svg)
        #expect(svg.contains("stroke-dasharray"))
        #expect(svg.contains("xlink:title=\"inner is nested in outer"))
        let (dot, _) = try GraphRenderer.render(model: EventScript.nested().model(), format: .dot)
        #expect(dot.hasPrefix("digraph reactor"))
        #expect(dot.contains("pos=\""))
    }

    @Test func sharedNamesAcrossKindsGetDistinctIdentifiers() throws {
        var script = EventScript()
        script.create(1, .dependency, "legend")
        script.create(2, .computation, "legend")
        script.run(2, first: true) { s in s.depend(2, 1) }
        let graph = try DependencyGraph(model: script.model())
        #expect(Set(graph.nodes.map(\.key)) == ["legend [dependency]", "legend [autorun]"])
        let dot = DOTWriter(graph: graph).dot()
        #expect(dot.contains("\"legend [dependency]\" -> \"legend [autorun]\""))
        let (svg, _) = try GraphRenderer.render(model: script.model())
        #expect(svg.contains("<title>legend [autorun]</title>"))
    }

    @Test func escapesHostileNames() throws {
        var script = EventScript()
        script.create(1, .dependency, "quote\" back\\slash <html> & \n newline")
        script.create(2, .computation, "reader {}")
        script.run(2, first: true) { s in s.depend(2, 1) }
        let (svg, _) = try GraphRenderer.render(model: script.model(), format: .svg)
        #expect(svg.contains("reader {}"))
        #expect(svg.contains("&lt;html&gt;"))
    }

    @Test func rejectsInvalidDOT() {
        #expect(throws: GraphError.invalidDOT) { try GraphRenderer.render(dot: "digraph {", format: .svg) }
    }
}

extension EventScript {
    /// `computations` autoruns `c0…`, each reading its own dependency `d0…`;
    /// `c<i>` reruns `i` times, so the last ones are the hottest.
    static func wide(computations: Int) -> EventScript {
        var script = EventScript()
        for index in 0..<computations {
            let dependency = UInt64(1_000 + index), computation = UInt64(10_000 + index)
            script.create(dependency, .dependency, "d\(index)")
            script.create(computation, .computation, "c\(index)")
            script.run(computation, first: true) { s in s.depend(computation, dependency) }
            for _ in 0..<index {
                script.changed(dependency)
                script.invalidate(computation, .dependency, dependency)
                script.run(computation) { s in s.depend(computation, dependency) }
            }
        }
        return script
    }
}

@Suite struct GraphConcurrencyTests {
    /// Graphviz is not thread-safe: renders from many threads must be serialized, not crash or mix.
    @Test func concurrentRendersAllSucceed() async throws {
        let model = EventScript.todos(adds: 2).model()
        let nested = EventScript.nested().model()
        let outputs = try await withThrowingTaskGroup(of: (Int, String).self) { group in
            for index in 0..<8 {
                group.addTask {
                    let (svg, _) = try GraphRenderer.render(model: index.isMultiple(of: 2) ? model : nested)
                    return (index, svg)
                }
            }
            var collected: [(Int, String)] = []
            for try await output in group { collected.append(output) }
            return collected
        }
        #expect(outputs.count == 8)
        for (index, svg) in outputs {
            #expect(svg.contains(index.isMultiple(of: 2) ? ">visibleTodos</text>" : ">outer</text>"))
        }
    }
}

/// Large graphs drawn by dependency layer: each layer's computations as one
/// node until it is opened.
@Suite struct GraphLayerTests {
    @Test func eachLayersComputationsAreOneNodeWithTheirEdgesMerged() throws {
        let model = EventScript.todos(adds: 3).model()
        let full = try DependencyGraph(model: model, options: GraphOptions(selection: .all))
        let graph = try DependencyGraph(model: model, options: GraphOptions(selection: .layers(expanded: [])))
        // Layer 0: the properties; 1: visibleTodos and count read them; 2: list reads visibleTodos.
        #expect(Set(graph.nodes.map(\.name)) == ["TodoStore.todos", "TodoStore.filter", "layer 1", "list"])
        let layer = try #require(graph.node(named: "layer 1"))
        #expect(layer.layer == 1)
        #expect(layer.members == ["count", "visibleTodos"])
        let parts = full.nodes.filter { ["count", "visibleTodos"].contains($0.name) }
        #expect(layer.runs.reruns == parts.reduce(0) { $0 + $1.runs.reruns })
        let todos = try #require(graph.node(named: "TodoStore.todos"))
        let merged = try #require(graph.edges.first { $0.from == todos.key && $0.to == layer.key })
        let separate = full.edges.filter { $0.from == todos.key && parts.map(\.key).contains($0.to) }
        #expect(separate.count == 2)
        #expect(merged.invalidations == separate.reduce(0) { $0 + $1.invalidations })
        #expect(graph.edges.contains { $0.from == layer.key && $0.to == graph.node(named: "list")?.key })
        #expect(graph.totalNodes == full.nodes.count)
    }

    @Test func anOpenedLayerIsDrawnNodeByNode() throws {
        let model = EventScript.todos(adds: 3).model()
        let full = try DependencyGraph(model: model, options: GraphOptions(selection: .all))
        let opened = try DependencyGraph(model: model, options: GraphOptions(selection: .layers(expanded: [1])))
        #expect(opened.nodes.map(\.name) == full.nodes.map(\.name))
        #expect(opened.edges == full.edges)
        // The DOT of a closed layer draws it as one box naming how many it holds.
        let dot = DOTWriter(graph: try DependencyGraph(model: model, options: GraphOptions(selection: .layers(expanded: [])))).dot()
        #expect(dot.contains("shape=box3d"))
        #expect(dot.contains("2 computeds") || dot.contains("2 autoruns"))
    }
}
