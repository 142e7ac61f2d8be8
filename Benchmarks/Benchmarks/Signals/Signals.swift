import Benchmark
import OpenCombine
import ReactorCore

/// ReactorCore's signals against OpenCombine's same pipelines, side by side:
/// one benchmark iteration sends `sends` values.
let sends = 1_000

/// Keeps what a benchmark's setup built alive for its iterations, and counts deliveries.
final class Pipeline {
    var received = 0
    var keep: [AnyObject] = []
    var send: (Int) -> Void = { _ in }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        timeUnits: .microseconds,
        warmupIterations: 5,
        maxDuration: .seconds(2),
        maxIterations: 2_000
    )

    // PassthroughSubject -> map -> filter -> subscriber: half the values pass.
    Benchmark("subject map filter ReactorCore") { benchmark, pipeline in
        runSends(benchmark, pipeline, expected: sends / 2)
    } setup: { () -> Pipeline in
        let pipeline = Pipeline()
        let subject = ReactorCore.PassthroughSubject<Int>()
        let subscription = subject.signal.map { $0 * 3 }.filter { $0 % 2 == 0 }.subscribe(next: { _ in pipeline.received += 1 })
        pipeline.keep = [subject, subscription]
        pipeline.send = { subject.send($0) }
        return pipeline
    }

    Benchmark("subject map filter OpenCombine") { benchmark, pipeline in
        runSends(benchmark, pipeline, expected: sends / 2)
    } setup: { () -> Pipeline in
        let pipeline = Pipeline()
        let subject = OpenCombine.PassthroughSubject<Int, Never>()
        let cancellable = subject.map { $0 * 3 }.filter { $0 % 2 == 0 }.sink { _ in pipeline.received += 1 }
        pipeline.keep = [subject, cancellable]
        pipeline.send = { subject.send($0) }
        return pipeline
    }

    // A property set with one subscriber.
    Benchmark("property set ReactorCore") { benchmark, pipeline in
        runSends(benchmark, pipeline, expected: sends)
    } setup: { () -> Pipeline in
        let pipeline = Pipeline()
        let property = ReactiveProperty(initialValue: -1)
        let subscription = property.subscribe { _ in pipeline.received += 1 }
        pipeline.keep = [property, subscription]
        pipeline.send = { property.value = $0 }
        return pipeline
    }

    Benchmark("property set OpenCombine") { benchmark, pipeline in
        runSends(benchmark, pipeline, expected: sends)
    } setup: { () -> Pipeline in
        let pipeline = Pipeline()
        let subject = CurrentValueSubject<Int, Never>(-1)
        let cancellable = subject.sink { _ in pipeline.received += 1 }
        pipeline.keep = [subject, cancellable]
        pipeline.send = { subject.send($0) }
        return pipeline
    }
}

/// Sends `sends` values and checks that `expected` of them arrived.
@inline(__always)
func runSends(_ benchmark: Benchmark, _ pipeline: Pipeline, expected: Int) {
    let send = pipeline.send
    for _ in benchmark.scaledIterations {
        let before = pipeline.received
        for value in 0..<sends { send(value) }
        precondition(pipeline.received - before == expected, "lost or extra deliveries")
    }
}
