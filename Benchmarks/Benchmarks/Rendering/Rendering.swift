import Benchmark
import Foundation
import ReactorCore
import ReactorInspector
import ReactorTrace

/// Graph rendering time by node count: a recorded trace of a generated graph,
/// loaded into a `TraceModel` in setup, rendered to SVG by Graphviz in each
/// iteration — a fan (every node selected), and the dense chain on which
/// `dot` used to run for minutes, both as `graph` draws it by default and
/// with `--all`.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal],
        timeUnits: .milliseconds,
        warmupIterations: 1,
        maxDuration: .seconds(3),
        maxIterations: 50
    )

    for computeds in [10, 100, 400] {
        Benchmark("render svg, \(computeds) computeds") { benchmark, model in
            for _ in benchmark.scaledIterations {
                let rendered = try? GraphRenderer.render(model: model, options: GraphOptions(selection: .all), format: .svg)
                precondition(rendered?.output.hasPrefix("<?xml") == true, "rendering failed")
                blackHole(rendered)
            }
        } setup: { () -> TraceModel in
            try recordedModel(computeds: computeds)
        }
    }

    for nodes in [50, 100, 200, 300, 1000] {
        for (name, selection) in [("default", GraphSelection.automatic), ("all", .all)] {
            Benchmark("render svg, dense chain \(nodes) nodes, \(name)") { benchmark, model in
                for _ in benchmark.scaledIterations {
                    let rendered = try? GraphRenderer.render(model: model, options: GraphOptions(selection: selection), format: .svg)
                    precondition(rendered?.output.hasPrefix("<?xml") == true, "rendering failed")
                    blackHole(rendered)
                }
            } setup: { () -> TraceModel in
                try recordedDenseModel(nodes: nodes)
            }
        }
    }
}

/// Records a graph of one source, `computeds` computeds reading it and an
/// autorun reading them all, through three writes; returns the model the
/// inspector builds from that trace. (A chain in which each computed also
/// reads the source took Graphviz minutes to lay out at 200 nodes.)
func recordedModel(computeds: Int) throws -> TraceModel {
    let path = FileManager.default.temporaryDirectory
        .appendingPathComponent("reactor-bench-render-\(computeds)-\(getpid()).trace").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    try TraceRecorder.start(path: path)
    do {
        let reactor = Reactor(scheduler: .endOfBatch)
        let source = ReactiveProperty(initialValue: 0, name: "source")
        let fan = (0..<computeds).map { index in reactor.computed("c\(index)") { source.value + index } }
        let effect = reactor.autorun("effect") { _ in
            var total = 0
            for node in fan { total += node.value }
            _ = total
        }
        for value in 1...3 { source.value = value }
        effect.stop()
    }
    TraceRecorder.stop()
    return try TraceFile.model(path: path).0
}

/// Records the dense chain of `stress --shape chain`: one source, `nodes - 2`
/// computeds each reading the previous one and the source (an edge from the
/// source across every rank), one autorun reading the last; three writes.
func recordedDenseModel(nodes: Int) throws -> TraceModel {
    let path = FileManager.default.temporaryDirectory
        .appendingPathComponent("reactor-bench-dense-\(nodes)-\(getpid()).trace").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    try TraceRecorder.start(path: path)
    do {
        let reactor = Reactor(scheduler: .endOfBatch)
        let source = ReactiveProperty(initialValue: 0, name: "source")
        var chain: [Computed<Int>] = []
        for index in 0..<(nodes - 2) {
            let previous = chain.last
            chain.append(reactor.computed("c\(index)") { (previous?.value ?? 0) + source.value })
        }
        let last = chain[chain.count - 1]
        let effect = reactor.autorun("effect") { _ in _ = last.value }
        for value in 1...3 { source.value = value }
        effect.stop()
    }
    TraceRecorder.stop()
    return try TraceFile.model(path: path).0
}
