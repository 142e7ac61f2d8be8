import Benchmark
import Foundation
import ReactivityCases
import ReactorCore
import ReactorTrace

/// The cost of tracing: one traced event with no recorder installed and with
/// the binary recorder installed, and a kairo case untraced and traced. In its
/// own executable, so the recorder installed here touches no other benchmark.
let eventsPerIteration = 10_000

/// A scratch trace file, removed when the benchmark ends.
func scratchTracePath(_ name: String) -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("reactor-bench-\(name)-\(getpid()).rtrace").path
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        timeUnits: .nanoseconds,
        warmupIterations: 5,
        maxDuration: .seconds(2),
        maxIterations: 2_000
    )

    // `changed()` on a dependency nobody reads emits exactly one event (`changed`).
    Benchmark("one event, tracing off (x10000)") { benchmark, dependency in
        precondition(ReactorTracing.tracer == nil)
        for _ in benchmark.scaledIterations {
            for _ in 0..<eventsPerIteration { dependency.changed() }
        }
    } setup: { () -> Dependency in
        Dependency("bench.event")
    }

    let tracedPath = scratchTracePath("event")
    Benchmark("one event, recorder on (x10000)") { benchmark, dependency in
        precondition(ReactorTracing.tracer != nil)
        for _ in benchmark.scaledIterations {
            for _ in 0..<eventsPerIteration { dependency.changed() }
        }
    } setup: { () -> Dependency in
        try TraceRecorder.start(path: tracedPath)
        return Dependency("bench.event")
    } teardown: {
        TraceRecorder.stop()
        try? FileManager.default.removeItem(atPath: tracedPath)
    }

    guard let deep = CaseDefinition.all.first(where: { $0.name == "deepPropagation" }) else { return }
    Benchmark("deepPropagation ReactorCore untraced") { benchmark, instance in
        for _ in benchmark.scaledIterations { blackHole(instance.run()) }
    } setup: { () -> any ReactivityCase in
        deep.make(.reactorCore)
    }

    let deepPath = scratchTracePath("deep")
    Benchmark("deepPropagation ReactorCore traced") { benchmark, instance in
        for _ in benchmark.scaledIterations { blackHole(instance.run()) }
    } setup: { () -> any ReactivityCase in
        try TraceRecorder.start(path: deepPath)
        return deep.make(.reactorCore)
    } teardown: {
        TraceRecorder.stop()
        try? FileManager.default.removeItem(atPath: deepPath)
    }
}
