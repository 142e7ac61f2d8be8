import Benchmark
import Foundation
import ReactivityCases
import ReactorCore
import ReactorTrace

/// The cost of tracing (Benchmarks/README.md, "Tracing (issue 4)"), side by side
/// in one run. In its own executable, so the recorders started here touch no
/// other benchmark. Every recording goes to a scratch file, removed at teardown.
let eventsPerIteration = 10_000
/// Events one thread records per iteration in the recorder benchmarks.
let recorderEvents = 100_000
/// Events per iteration of the throughput benchmark: 40 times what a thread may
/// have queued (17 × 64 KiB), so the writer's pace is what is measured.
let throughputEvents = 10_000_000

/// A scratch trace file.
func scratchTracePath(_ name: String) -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("reactor-bench-\(name)-\(getpid()).trace").path
}

/// Starts a recording to a scratch file for a benchmark's setup.
func startRecording(_ name: String) throws -> TraceRecorder {
    try TraceRecorder.start(path: scratchTracePath(name))
}

/// Stops the recording a benchmark's setup started and removes its file.
func stopRecording() {
    guard let recorder = TraceRecorder.current else { return }
    recorder.stop()
    try? FileManager.default.removeItem(atPath: recorder.path)
}

/// `count` untimed events (`changed`, 2 bytes each), through the protocol as the core calls it.
@inline(never)
func recordUntimed(_ tracer: any ReactorTracer, _ count: Int) {
    for _ in 0..<count { tracer.changed(dependency: 7) }
}

/// `count` timed events (`rerunBegan`: a clock read, 2 to 3 bytes each).
@inline(never)
func recordTimed(_ tracer: any ReactorTracer, _ count: Int) {
    for _ in 0..<count { tracer.rerunBegan(computation: 9, firstRun: false) }
}

/// `count` events in the mix of a node update in the kairo cases and `stress`:
/// changed, invalidated, rerun began (timed), depend, rerun ended (timed).
@inline(never)
func recordMix(_ tracer: any ReactorTracer, _ count: Int) {
    var computation: UInt64 = 1_000
    for _ in 0..<count / 5 {
        let dependency = computation &- 1
        tracer.changed(dependency: dependency)
        tracer.invalidated(computation: computation, cause: .dependency, source: dependency)
        tracer.rerunBegan(computation: computation, firstRun: false)
        tracer.depend(computation: computation, dependency: dependency)
        tracer.rerunEnded(computation: computation)
        computation = computation == 1_049 ? 1_000 : computation &+ 1
    }
}

/// The calling thread's CPU time in nanoseconds: what it spent itself, whether or
/// not it had a core to itself (the machine is shared, wall-clock is not).
func threadCPUNanoseconds() -> Int {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return time.tv_sec * 1_000_000_000 + time.tv_nsec
}

/// Records `count` events with `record` and returns the thread CPU time it took.
func cpuTime(_ record: (any ReactorTracer, Int) -> Void, _ tracer: any ReactorTracer, _ count: Int) -> Int {
    let start = threadCPUNanoseconds()
    record(tracer, count)
    return threadCPUNanoseconds() - start
}

/// The CPU time per event of the recording threads, in picoseconds: equal on one
/// and on two threads means no contention between them (no shared lock or cache line).
let cpuPerEvent = BenchmarkMetric.custom("CPU ps/event", polarity: .prefersSmaller, useScalingFactor: false)

/// Reports the events per second of one iteration as a custom metric (millions).
func reportRate(_ benchmark: Benchmark, events: Int, since start: ContinuousClock.Instant) {
    let seconds = Double((ContinuousClock.now - start) / .nanoseconds(1)) / 1e9
    benchmark.measurement(.custom("Mevents/s", polarity: .prefersLarger, useScalingFactor: false),
                          Int((Double(events) / seconds / 1e6).rounded()))
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        timeUnits: .nanoseconds,
        warmupIterations: 5,
        maxDuration: .seconds(2),
        maxIterations: 2_000
    )

    // `changed()` on a dependency nobody reads emits exactly one event (`changed`),
    // so the difference of the two medians is the cost of one event as the core pays it.
    Benchmark("one event, tracing off (x10000)") { benchmark, dependency in
        precondition(ReactorTracing.tracer == nil)
        for _ in benchmark.scaledIterations {
            for _ in 0..<eventsPerIteration { dependency.changed() }
        }
    } setup: { () -> Dependency in
        Dependency("bench.event")
    }

    Benchmark("one event, recorder on (x10000)") { benchmark, dependency in
        precondition(ReactorTracing.tracer != nil)
        for _ in benchmark.scaledIterations {
            for _ in 0..<eventsPerIteration { dependency.changed() }
        }
    } setup: { () -> Dependency in
        _ = try startRecording("event")
        return Dependency("bench.event")
    } teardown: {
        stopRecording()
    }

    // The recorder alone, called through `any ReactorTracer` like the core calls
    // it, on one thread and on two at once (each its own buffer): the same events
    // per thread, so equal medians mean perfect scaling.
    // Wall-clock needs two idle cores to show scaling; the thread CPU time per
    // event shows contention whatever else runs on the machine.
    let recorderConfiguration = Benchmark.Configuration(
        metrics: [.wallClock, .custom("Mevents/s", polarity: .prefersLarger, useScalingFactor: false), cpuPerEvent],
        timeUnits: .microseconds
    )
    for (kind, record) in [("untimed", recordUntimed), ("timed", recordTimed)] as [(String, @Sendable (any ReactorTracer, Int) -> Void)] {
        Benchmark("recorder \(kind) event, 1 thread (x100000)", configuration: recorderConfiguration) { benchmark, recorder in
            for _ in benchmark.scaledIterations {
                let start = ContinuousClock.now
                let cpu = cpuTime(record, recorder, recorderEvents)
                reportRate(benchmark, events: recorderEvents, since: start)
                benchmark.measurement(cpuPerEvent, cpu * 1_000 / recorderEvents)
            }
        } setup: { () -> TraceRecorder in
            try startRecording("recorder-\(kind)-1")
        } teardown: {
            stopRecording()
        }

        Benchmark("recorder \(kind) event, 2 threads (x100000 each)", configuration: recorderConfiguration) { benchmark, state in
            for _ in benchmark.scaledIterations {
                let start = ContinuousClock.now
                // One slot a thread; `run` returns after both wrote theirs.
                let cpu = UnsafeMutableBufferPointer<Int>.allocate(capacity: 2)
                defer { cpu.deallocate() }
                state.pair.run { thread in cpu[thread] = cpuTime(record, state.recorder, recorderEvents) }
                reportRate(benchmark, events: 2 * recorderEvents, since: start)
                benchmark.measurement(cpuPerEvent, (cpu[0] + cpu[1]) * 1_000 / (2 * recorderEvents))
            }
        } setup: { () -> (recorder: TraceRecorder, pair: ThreadPair) in
            (try startRecording("recorder-\(kind)-2"), ThreadPair())
        } teardown: {
            stopRecording()
        }
    }

    // Sustained throughput, file included: 10 M events of the node-update mix from
    // one thread. A thread may only queue 17 buffers (1.1 MiB), so after the first
    // ~4% the recording thread runs at the pace at which the writer ships to disk.
    Benchmark("recorder throughput, mix to disk (x10M)", configuration: .init(
        metrics: [.wallClock, .custom("Mevents/s", polarity: .prefersLarger, useScalingFactor: false)],
        timeUnits: .milliseconds, maxDuration: .seconds(5), maxIterations: 20
    )) { benchmark, recorder in
        for _ in benchmark.scaledIterations {
            let start = ContinuousClock.now
            recordMix(recorder, throughputEvents)
            reportRate(benchmark, events: throughputEvents, since: start)
        }
    } setup: { () -> TraceRecorder in
        try startRecording("throughput")
    } teardown: {
        stopRecording()
    }

    // The same ratio measured within each iteration: one run untraced, then one
    // run with the recorder installed, back to back, so a burst of load from
    // elsewhere on the (shared) machine hits both halves alike. The p50 of the
    // per-iteration ratio is the figure to quote; the pairs below give the times.
    let tracedRatio = BenchmarkMetric.custom("traced/untraced %", polarity: .prefersSmaller, useScalingFactor: false)
    let paired = ["deepPropagation", "broadPropagation", "diamond", "triangle"]
    for definition in CaseDefinition.all where paired.contains(definition.name) {
        Benchmark("\(definition.name) traced ÷ untraced, paired", configuration: .init(
            metrics: [tracedRatio], timeUnits: .microseconds, maxDuration: .seconds(3), maxIterations: 1_000
        )) { benchmark, state in
            for _ in benchmark.scaledIterations {
                let start = ContinuousClock.now
                blackHole(state.instance.run())
                let middle = ContinuousClock.now
                ReactorTracing.install(state.recorder)
                blackHole(state.instance.run())
                ReactorTracing.install(nil)
                let end = ContinuousClock.now
                benchmark.measurement(tracedRatio, Int(((end - middle) / (middle - start) * 100).rounded()))
            }
        } setup: { () -> (instance: any ReactivityCase, recorder: TraceRecorder) in
            // A recorder that is not installed: the iterations install it for their traced half.
            (definition.make(.reactorCore), try PairedRecorders.shared.open("paired-\(definition.name)"))
        } teardown: {
            PairedRecorders.shared.stopAll()
        }
    }

    // Kairo cases untraced and traced, each pair next to each other.
    let traced = ["deepPropagation", "broadPropagation", "diamond", "triangle"]
    for definition in CaseDefinition.all where traced.contains(definition.name) {
        let kairo = Benchmark.Configuration(timeUnits: .microseconds)
        Benchmark("\(definition.name) untraced", configuration: kairo) { benchmark, instance in
            precondition(ReactorTracing.tracer == nil)
            for _ in benchmark.scaledIterations { blackHole(instance.run()) }
        } setup: { () -> any ReactivityCase in
            definition.make(.reactorCore)
        }

        Benchmark("\(definition.name) traced", configuration: kairo) { benchmark, instance in
            precondition(ReactorTracing.tracer != nil)
            for _ in benchmark.scaledIterations { blackHole(instance.run()) }
        } setup: { () -> any ReactivityCase in
            // Built before the recording starts, like the untraced one: only the runs are traced.
            let instance = definition.make(.reactorCore)
            _ = try startRecording("kairo-\(definition.name)")
            return instance
        } teardown: {
            stopRecording()
        }
    }
}
