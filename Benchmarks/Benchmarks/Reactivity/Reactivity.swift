import Benchmark
import ReactivityCases

/// The kairo set and cellx, each case in every implementation, side by side in
/// one run. One benchmark iteration is one run of the case (one call of the
/// function the JS case returns); `writesPerRun` turns counts into per-write ones.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        timeUnits: .microseconds,
        warmupIterations: 5,
        maxDuration: .seconds(2),
        maxIterations: 2_000
    )

    for definition in CaseDefinition.all {
        for implementation in definition.implementations {
            Benchmark("\(definition.name) \(implementation.rawValue)") { benchmark, instance in
                for _ in benchmark.scaledIterations {
                    blackHole(instance.run())
                }
            } setup: { () -> any ReactivityCase in
                let instance = definition.make(implementation)
                // The same values as the hand-written baseline, or no measurement.
                let baseline = definition.make(.baseline)
                _ = (instance.run(), baseline.run())
                precondition(instance.snapshot() == baseline.snapshot(),
                             "\(definition.name) \(implementation.rawValue) disagrees with the baseline")
                return instance
            }
        }
    }
}
