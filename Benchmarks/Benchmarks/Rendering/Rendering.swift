import Benchmark
import Foundation
import ReactorCore
import ReactorInspector
import ReactorTrace

/// Graph rendering time by node count: a recorded trace of a generated graph,
/// loaded into a `TraceModel` in setup, rendered to SVG (every node selected)
/// by Graphviz in each iteration.
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
}

/// Records a graph of one source, `computeds` computeds reading it and an
/// autorun reading them all, through three writes; returns the model the
/// inspector builds from that trace. (A chain in which each computed also
/// reads the source took Graphviz minutes to lay out at 200 nodes.)
func recordedModel(computeds: Int) throws -> TraceModel {
    let path = FileManager.default.temporaryDirectory
        .appendingPathComponent("reactor-bench-render-\(computeds)-\(getpid()).rtrace").path
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
