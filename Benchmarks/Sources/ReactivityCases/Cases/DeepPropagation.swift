import Observation
import OpenCombine
import ReactorCore

/// Kairo's deep propagation: a chain of 50 computeds under one source and one
/// effect at its end; a run writes the source 51 times, each in its own batch.
enum DeepPropagation {
    static let length = 50
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
        let last: Computed<Int>

        init() {
            let reactor = harness.reactor
            let head = ReactorSignal(0)
            var current = reactor.computed { head.value + 1 }
            for _ in 1..<length {
                let previous = current
                current = reactor.computed { previous.value + 1 }
            }
            let last = current
            self.head = head
            self.last = last
            harness.effect { _ = last.value }
        }

        var effectRuns: Int { harness.counter.runs }

        func run() -> Int {
            let reactor = harness.reactor
            reactor.batch { head.value = 1 }
            var sum = 0
            for i in 0..<writes {
                reactor.batch { head.value = i }
                sum &+= expectValue(last.value, length + i)
            }
            return sum
        }

        func snapshot() -> [Int] { [last.value] }
    }

    final class ObservationCase: ReactivityCase {
        let scheduler = ObservationScheduler()
        let head = ObservedSignal(0)
        let last: () -> Int

        init() {
            let head = head
            var current: () -> Int = { head.value }
            for _ in 0..<length {
                let previous = current
                current = { previous() + 1 }
            }
            let last = current
            self.last = last
            scheduler.effect { _ = last() }
        }

        var effectRuns: Int { scheduler.counter.runs }

        func run() -> Int {
            scheduler.batch { head.value = 1 }
            var sum = 0
            for i in 0..<writes {
                scheduler.batch { head.value = i }
                sum &+= expectValue(last(), length + i)
            }
            return sum
        }

        func snapshot() -> [Int] { [last()] }
    }

    final class OpenCombineCase: ReactivityCase {
        let graph = CombineGraph()
        let head = CurrentValueSubject<Int, Never>(0)
        let last: CurrentValueSubject<Int, Never>

        init() {
            var current = head
            for _ in 0..<length {
                current = graph.map(current) { $0 + 1 }
            }
            last = current
            graph.effect(last)
        }

        var effectRuns: Int { graph.counter.runs }

        func run() -> Int {
            head.send(1)
            var sum = 0
            for i in 0..<writes {
                head.send(i)
                sum &+= expectValue(last.value, length + i)
            }
            return sum
        }

        func snapshot() -> [Int] { [last.value] }
    }

    /// The plain pipeline: `head.map { $0 + 1 }` 50 times, erased, into one
    /// sink. Erased at every stage, as a chain built in a loop must be; that
    /// also keeps OpenCombine from fusing consecutive maps into one closure, so
    /// a write runs 50 stages as the other implementations update 50 nodes.
    final class MapChainCase: ReactivityCase {
        let head = CurrentValueSubject<Int, Never>(0)
        let sink = MapChainSink(count: 1)

        init() {
            var chain = head.eraseToAnyPublisher()
            for _ in 0..<length {
                chain = chain.map { $0 + 1 }.eraseToAnyPublisher()
            }
            sink.attach(chain, at: 0)
        }

        var effectRuns: Int { sink.runs }

        func run() -> Int {
            head.send(1)
            var sum = 0
            for i in 0..<writes {
                head.send(i)
                sum &+= expectValue(sink.values[0], length + i)
            }
            return sum
        }

        func snapshot() -> [Int] { sink.values }
    }

    /// The floor: plain stored values, without dynamic exclusivity checks.
    final class BaselineCase: ReactivityCase {
        @exclusivity(unchecked) var head = 0
        @exclusivity(unchecked) var chain = [Int](repeating: 0, count: length)
        @exclusivity(unchecked) var effectRuns = 0

        init() { propagate() }

        func write(_ value: Int) {
            if value == head { return }
            head = value
            propagate()
        }

        func propagate() {
            var value = head
            for index in 0..<length {
                value += 1
                chain[index] = value
            }
            effectRuns += 1
        }

        func run() -> Int {
            write(1)
            var sum = 0
            for i in 0..<writes {
                write(i)
                sum &+= expectValue(chain[length - 1], length + i)
            }
            return sum
        }

        func snapshot() -> [Int] { [chain[length - 1]] }
    }
}
