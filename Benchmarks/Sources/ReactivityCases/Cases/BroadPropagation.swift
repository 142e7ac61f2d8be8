import Observation
import OpenCombine
import ReactorCore

/// Kairo's broad propagation: 50 branches under one source, each two computeds
/// (`head + i`, then `+ 1`) and an effect; a run writes the source 51 times,
/// each in its own batch.
enum BroadPropagation {
    static let width = 50
    static let writes = 50

    static func make(_ implementation: Implementation) -> any ReactivityCase {
        switch implementation {
        case .reactorCore: ReactorCoreCase()
        case .observation: ObservationCase()
        case .openCombine: OpenCombineCase()
        case .baseline: BaselineCase()
        case .openCombineMapChain: MapChainCase()
        }
    }

    final class ReactorCoreCase: ReactivityCase {
        let harness = ReactorHarness()
        let head: ReactorSignal
        let ends: [Computed<Int>]

        init() {
            let reactor = harness.reactor
            let head = ReactorSignal(0)
            var ends: [Computed<Int>] = []
            for i in 0..<width {
                let current = reactor.computed { head.value + i }
                ends.append(reactor.computed { current.value + 1 })
            }
            self.head = head
            self.ends = ends
            for end in ends { harness.effect { _ = end.value } }
        }

        var effectRuns: Int { harness.counter.runs }

        func run() -> Int {
            let reactor = harness.reactor
            let last = ends[width - 1]
            reactor.batch { head.value = 1 }
            var sum = 0
            for i in 0..<writes {
                reactor.batch { head.value = i }
                sum &+= expectValue(last.value, i + width)
            }
            return sum
        }

        func snapshot() -> [Int] { ends.map(\.value) }
    }

    final class ObservationCase: ReactivityCase {
        let scheduler = ObservationScheduler()
        let head = ObservedSignal(0)
        let ends: [() -> Int]

        init() {
            let head = head
            var ends: [() -> Int] = []
            for i in 0..<width {
                let current = { head.value + i }
                ends.append { current() + 1 }
            }
            self.ends = ends
            for end in ends { scheduler.effect { _ = end() } }
        }

        var effectRuns: Int { scheduler.counter.runs }

        func run() -> Int {
            let last = ends[width - 1]
            scheduler.batch { head.value = 1 }
            var sum = 0
            for i in 0..<writes {
                scheduler.batch { head.value = i }
                sum &+= expectValue(last(), i + width)
            }
            return sum
        }

        func snapshot() -> [Int] { ends.map { $0() } }
    }

    final class OpenCombineCase: ReactivityCase {
        let graph = CombineGraph()
        let head = CurrentValueSubject<Int, Never>(0)
        let ends: [CurrentValueSubject<Int, Never>]

        init() {
            var ends: [CurrentValueSubject<Int, Never>] = []
            for i in 0..<width {
                let current = graph.map(head) { $0 + i }
                ends.append(graph.map(current) { $0 + 1 })
            }
            self.ends = ends
            for end in ends { graph.effect(end) }
        }

        var effectRuns: Int { graph.counter.runs }

        func run() -> Int {
            let last = ends[width - 1]
            head.send(1)
            var sum = 0
            for i in 0..<writes {
                head.send(i)
                sum &+= expectValue(last.value, i + width)
            }
            return sum
        }

        func snapshot() -> [Int] { ends.map(\.value) }
    }

    /// The plain pipelines: 50 × `head.map { $0 + i }.map { $0 + 1 }`, erased,
    /// each into its own sink.
    final class MapChainCase: ReactivityCase {
        let head = CurrentValueSubject<Int, Never>(0)
        let sink = MapChainSink(count: width)

        init() {
            for i in 0..<width {
                sink.attach(head.map { $0 + i }.map { $0 + 1 }.eraseToAnyPublisher(), at: i)
            }
        }

        var effectRuns: Int { sink.runs }

        func run() -> Int {
            head.send(1)
            var sum = 0
            for i in 0..<writes {
                head.send(i)
                sum &+= expectValue(sink.values[width - 1], i + width)
            }
            return sum
        }

        func snapshot() -> [Int] { sink.values }
    }

    /// The floor: plain stored values, without dynamic exclusivity checks.
    final class BaselineCase: ReactivityCase {
        @exclusivity(unchecked) var head = 0
        @exclusivity(unchecked) var currents = [Int](repeating: 0, count: width)
        @exclusivity(unchecked) var ends = [Int](repeating: 0, count: width)
        @exclusivity(unchecked) var effectRuns = 0

        init() { propagate() }

        func write(_ value: Int) {
            if value == head { return }
            head = value
            propagate()
        }

        func propagate() {
            for i in 0..<width {
                currents[i] = head + i
                ends[i] = currents[i] + 1
                effectRuns += 1
            }
        }

        func run() -> Int {
            write(1)
            var sum = 0
            for i in 0..<writes {
                write(i)
                sum &+= expectValue(ends[width - 1], i + width)
            }
            return sum
        }

        func snapshot() -> [Int] { ends }
    }
}
