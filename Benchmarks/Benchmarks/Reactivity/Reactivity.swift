import Benchmark

let benchmarks: @Sendable () -> Void = {
    Benchmark("noop") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(1) }
    }
}
