import Observation
import OpenCombine
import ReactorCore

/// Kairo's mux: 100 sources gathered into one computed collection, split again
/// into 100 computeds (`mux[i]`, then `+ 1`), each read by an effect; a run
/// writes ten of the sources twice, unbatched, reading the matching output.
enum Mux {
    static let width = 100
    static let writes = 10

    static func make(_ implementation: Implementation) -> any ReactivityCase {
        switch implementation {
        case .reactorCore: ReactorCoreCase()
        case .observation: ObservationCase()
        case .openCombine: OpenCombineCase()
        case .baseline: BaselineCase()
        case .openCombineMapChain: preconditionFailure("a plain map chain has no joins: no form of this case")
        }
    }

    final class ReactorCoreCase: ReactivityCase {
        let harness = ReactorHarness()
        let heads: [ReactorSignal]
        let outputs: [Computed<Int>]

        init() {
            let reactor = harness.reactor
            let heads = (0..<width).map { _ in ReactorSignal(0) }
            let mux = reactor.computed { heads.map(\.value) }
            let outputs = (0..<width)
                .map { index in reactor.computed { mux.value[index] } }
                .map { split in reactor.computed { split.value + 1 } }
            self.heads = heads
            self.outputs = outputs
            for output in outputs { harness.effect { _ = output.value } }
        }

        var effectRuns: Int { harness.counter.runs }

        func run() -> Int {
            var total = 0
            for i in 0..<writes {
                heads[i].value = i
                total &+= expectValue(outputs[i].value, i + 1)
            }
            for i in 0..<writes {
                heads[i].value = i * 2
                total &+= expectValue(outputs[i].value, i * 2 + 1)
            }
            return total
        }

        func snapshot() -> [Int] { outputs.map(\.value) }
    }

    final class ObservationCase: ReactivityCase {
        let scheduler = ObservationScheduler()
        let heads = (0..<width).map { _ in ObservedSignal(0) }
        let outputs: [() -> Int]

        init() {
            let heads = heads
            let mux = { heads.map(\.value) }
            let outputs = (0..<width)
                .map { index in { mux()[index] } }
                .map { split in { split() + 1 } }
            self.outputs = outputs
            for output in outputs { scheduler.effect { _ = output() } }
        }

        var effectRuns: Int { scheduler.counter.runs }

        func run() -> Int {
            var total = 0
            for i in 0..<writes {
                scheduler.batch { heads[i].value = i }
                total &+= expectValue(outputs[i](), i + 1)
            }
            for i in 0..<writes {
                scheduler.batch { heads[i].value = i * 2 }
                total &+= expectValue(outputs[i](), i * 2 + 1)
            }
            return total
        }

        func snapshot() -> [Int] { outputs.map { $0() } }
    }

    final class OpenCombineCase: ReactivityCase {
        let graph = CombineGraph()
        let heads = (0..<width).map { _ in CurrentValueSubject<Int, Never>(0) }
        let outputs: [CurrentValueSubject<Int, Never>]

        init() {
            let heads = heads
            let graph = graph
            let mux = graph.combineLatest(heads) { heads.map(\.value) }
            outputs = (0..<width)
                .map { index in graph.map(mux) { $0[index] } }
                .map { split in graph.map(split) { $0 + 1 } }
            for output in outputs { graph.effect(output) }
        }

        var effectRuns: Int { graph.counter.runs }

        func run() -> Int {
            var total = 0
            for i in 0..<writes {
                heads[i].send(i)
                total &+= expectValue(outputs[i].value, i + 1)
            }
            for i in 0..<writes {
                heads[i].send(i * 2)
                total &+= expectValue(outputs[i].value, i * 2 + 1)
            }
            return total
        }

        func snapshot() -> [Int] { outputs.map(\.value) }
    }

    /// The floor: plain stored values, without dynamic exclusivity checks.
    final class BaselineCase: ReactivityCase {
        @exclusivity(unchecked) var heads = [Int](repeating: 0, count: width)
        @exclusivity(unchecked) var mux = [Int](repeating: 0, count: width)
        @exclusivity(unchecked) var splits = [Int](repeating: 0, count: width)
        @exclusivity(unchecked) var outputs = [Int](repeating: 0, count: width)
        @exclusivity(unchecked) var effectRuns = 0

        init() {
            for index in 0..<width {
                outputs[index] = splits[index] + 1
                effectRuns += 1
            }
        }

        func write(_ index: Int, _ value: Int) {
            if heads[index] == value { return }
            heads[index] = value
            for k in 0..<width { mux[k] = heads[k] }
            for k in 0..<width where splits[k] != mux[k] {
                splits[k] = mux[k]
                outputs[k] = splits[k] + 1
                effectRuns += 1
            }
        }

        func run() -> Int {
            var total = 0
            for i in 0..<writes {
                write(i, i)
                total &+= expectValue(outputs[i], i + 1)
            }
            for i in 0..<writes {
                write(i, i * 2)
                total &+= expectValue(outputs[i], i * 2 + 1)
            }
            return total
        }

        func snapshot() -> [Int] { outputs }
    }
}
