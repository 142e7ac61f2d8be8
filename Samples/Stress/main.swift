// A generated reactive graph for benchmarks and crash tests: @Reactive sources,
// layers of computeds each reading a few nodes of the layer below, and autoruns
// on top. Deterministic for a given --seed.
//
//   stress [--computations N] [--writes N] [--seed S] [--shape layers|chain] [--threads N] [--trace PATH] [--loop [--writes-per-second N]] [--hold]
//
// --shape chain builds the graph that is hardest to lay out: one source and a
// chain of computeds, each reading the previous one and the source (an edge
// from the source across every rank), read by one autorun.
// --threads N writes from N threads at once (default 1: the main thread), each
// to its own share of the sources with its own generator, so the reruns differ
// from run to run but every count the sample prints is still exact.
// --loop keeps writing forever (for crash tests and live views; prints "recording" once started);
// --writes-per-second N paces it on one thread, for a steady event rate;
// --hold prints the counts after the writes, then sleeps without stopping the recorder.
// Prints one JSON line with the reruns per computation and the writes it counted itself.
import Foundation
import ReactorCore
import ReactorTrace
import SampleSupport

/// One reactive input of the graph. Sendable: its only state is the `@Reactive`
/// value, which the runtime guards; with `--threads` each source has one writer.
final class Source: @unchecked Sendable {
    @Reactive var value = 0
}

/// A small deterministic generator (SplitMix64), so a seed gives one graph.
struct SplitMix64 {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(max(1, bound))) }
}

var computations = 1000
var writeCount = 10_000
var seed: UInt64 = 1
var chain = false
var loop = false
var hold = false
var threads = 1
var pace: Int?
var commandLine = SampleCommandLine(
    program: "stress",
    usage: "[--computations N] [--writes N] [--seed S] [--shape layers|chain] [--threads N] [--trace PATH] [--loop [--writes-per-second N]] [--hold]")
while let option = commandLine.nextOption() {
    switch option {
    case "--computations": computations = max(2, commandLine.count(after: option))
    case "--writes": writeCount = commandLine.count(after: option)
    case "--seed": seed = UInt64(commandLine.count(after: option))
    case "--shape":
        switch commandLine.value(after: option) {
        case "layers": chain = false
        case "chain": chain = true
        default: commandLine.fail("--shape needs layers or chain")
        }
    case "--threads":
        threads = commandLine.count(after: option)
        if threads == 0 { commandLine.fail("--threads needs at least 1") }
    case "--loop": loop = true
    case "--writes-per-second": pace = max(1, commandLine.count(after: option))
    case "--hold": hold = true
    default: commandLine.rejectUnknown(option)
    }
}
let sourceCount = StressGraph.sourceCount(computations: computations, chain: chain)
if threads > sourceCount {
    commandLine.fail("--threads \(threads) needs \(threads) sources to write, and this graph has \(sourceCount)"
        + (chain ? " (--shape chain has one)" : " (about √computations: raise --computations)"))
}
commandLine.startTracing()

/// The generated graph and the counts the sample keeps of its own work.
final class StressGraph {
    var random: SplitMix64
    let sources: [Source]
    /// Runs per computation (first runs included), indexed like `names`: an
    /// array, not a dictionary, so that counting costs next to nothing.
    var runs: [Int] = []
    var names: [String] = []
    var writes = 0
    var sink = 0
    var computeds: [Computed<Int>] = []
    var effects: [Computation] = []

    /// Builds `computations` nodes: sources, then computed layers of width √n, then autoruns;
    /// or, as a `chain`, one source, computeds each reading the previous one and the source, and one autorun.
    init(computations: Int, seed: UInt64, chain: Bool = false, reactor: Reactor) {
        random = SplitMix64(state: seed)
        if chain {
            sources = [Source()]
            buildChain(computations: computations, reactor: reactor)
            return
        }
        let effectCount = max(1, computations / 4)
        let computedCount = computations - effectCount
        let width = Self.sourceCount(computations: computations, chain: false)
        sources = (0..<width).map { _ in Source() }
        var readers: [() -> Int] = sources.map { source in { source.value } }
        var layer = 0
        while computeds.count < computedCount {
            layer += 1
            var next: [() -> Int] = []
            for index in 0..<min(width, computedCount - computeds.count) {
                let inputs = (0..<(1 + random.below(3))).map { _ in readers[random.below(readers.count)] }
                let name = "c\(layer).\(index)"
                let halves = random.below(2) == 1
                let slot = names.count
                names.append(name)
                runs.append(0)
                let computed = reactor.computed(name) { [unowned self] () -> Int in
                    runs[slot] &+= 1
                    let sum = inputs.reduce(0) { $0 &+ $1() }
                    // Half the nodes cut off: their value often stays the same.
                    return halves ? sum / 2 : sum
                }
                computeds.append(computed)
                next.append { computed.value }
            }
            readers = next + readers.prefix(width / 2)   // later layers also reach back one layer
        }
        for index in 0..<effectCount {
            let inputs = (0..<(1 + random.below(3))).map { _ in readers[random.below(readers.count)] }
            let name = "effect\(index)"
            let slot = names.count
            names.append(name)
            runs.append(0)
            effects.append(reactor.autorun(name) { [unowned self] _ in
                runs[slot] &+= 1
                sink &+= inputs.reduce(0) { $0 &+ $1() }
            })
        }
    }

    /// The number of sources: the width of a layer, or one for a chain.
    static func sourceCount(computations: Int, chain: Bool) -> Int {
        chain ? 1 : max(2, Int(Double(computations).squareRoot()))
    }

    private func buildChain(computations: Int, reactor: Reactor) {
        let source = sources[0]
        var previous: Computed<Int>?
        for index in 0..<(computations - 1) {
            let slot = names.count
            names.append("c\(index)")
            runs.append(0)
            let before = previous
            let computed = reactor.computed("c\(index)") { [unowned self] () -> Int in
                runs[slot] &+= 1
                return (before?.value ?? 0) &+ source.value
            }
            computeds.append(computed)
            previous = computed
        }
        let last = previous!
        names.append("effect0")
        runs.append(0)
        let slot = names.count - 1
        effects.append(reactor.autorun("effect0") { [unowned self] _ in
            runs[slot] &+= 1
            sink &+= last.value
        })
    }

    /// Writes a new value to one source, outside any batch (so it flushes).
    func write() {
        let source = sources[random.below(sources.count)]
        source.value &+= 1 + random.below(7)   // always a different value: one `changed` each
        writes += 1
    }

    /// The JSON line: reruns (runs after the first) per computation that reran.
    func report(computations: Int) -> String {
        var reruns: [String: Int] = [:]
        for (name, count) in zip(names, runs) where count > 1 { reruns[name] = count - 1 }
        let list = reruns.keys.sorted().map { #""\#($0)":\#(reruns[$0]!)"# }.joined(separator: ",")
        let total = reruns.values.reduce(0, +)
        return #"{"sample":"stress","computations":\#(computations),"writes":\#(writes),"#
            + #""totalReruns":\#(total),"reruns":{\#(list)},"checksum":\#(sink)}"#
    }
}

func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

let graph = StressGraph(computations: computations, seed: seed, chain: chain, reactor: Reactor.shared)
if threads > 1 {
    if loop { say("recording") }
    graph.writes = ConcurrentWriters.run(sources: graph.sources, threads: threads, writes: loop ? nil : writeCount, seed: seed)
} else {
    if loop {
        say("recording")
        guard let pace else { while true { graph.write() } }
        // Paced: sleeps whenever it is ahead of `pace` writes a second, for a steady event rate.
        let start = DispatchTime.now().uptimeNanoseconds
        var written: UInt64 = 0
        while true {
            graph.write()
            written += 1
            let due = start + written * 1_000_000_000 / UInt64(pace)
            let now = DispatchTime.now().uptimeNanoseconds
            if due > now + 1_000_000 { usleep(UInt32((due - now) / 1000)) }
        }
    }
    for _ in 0..<writeCount { graph.write() }
}
if !hold { TraceRecorder.stop() }
say(graph.report(computations: computations))
if hold {
    while true { sleep(60) }
}
