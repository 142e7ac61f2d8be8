import Observation
import OpenCombine
import ReactorCore

/// Kairo's repeated observers: one computed reading the same source 30 times,
/// read by one effect; a run writes the source 101 times, each in its own batch.
enum RepeatedObservers {
    static let size = 30
    static let writes = 100

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
        let head: ReactorSignal
        let current: Computed<Int>

        init() {
            let head = ReactorSignal(0)
            let current = harness.reactor.computed {
                var result = 0
                for _ in 0..<size { result += head.value }
                return result
            }
            self.head = head
            self.current = current
            harness.effect { _ = current.value }
        }

        var effectRuns: Int { harness.counter.runs }

        func run() -> Int {
            let reactor = harness.reactor
            reactor.batch { head.value = 1 }
            var total = expectValue(current.value, size)
            for i in 0..<writes {
                reactor.batch { head.value = i }
                total &+= expectValue(current.value, i * size)
            }
            return total
        }

        func snapshot() -> [Int] { [current.value] }
    }

    final class ObservationCase: ReactivityCase {
        let scheduler = ObservationScheduler()
        let head = ObservedSignal(0)
        let current: () -> Int

        init() {
            let head = head
            let current = {
                var result = 0
                for _ in 0..<size { result += head.value }
                return result
            }
            self.current = current
            scheduler.effect { _ = current() }
        }

        var effectRuns: Int { scheduler.counter.runs }

        func run() -> Int {
            scheduler.batch { head.value = 1 }
            var total = expectValue(current(), size)
            for i in 0..<writes {
                scheduler.batch { head.value = i }
                total &+= expectValue(current(), i * size)
            }
            return total
        }

        func snapshot() -> [Int] { [current()] }
    }

    final class OpenCombineCase: ReactivityCase {
        let graph = CombineGraph()
        let head = CurrentValueSubject<Int, Never>(0)
        let current: CurrentValueSubject<Int, Never>

        init() {
            let head = head
            // The subject's current value, read 30 times, as the JS reads the signal.
            current = graph.map(head) { _ in
                var result = 0
                for _ in 0..<size { result += head.value }
                return result
            }
            graph.effect(current)
        }

        var effectRuns: Int { graph.counter.runs }

        func run() -> Int {
            head.send(1)
            var total = expectValue(current.value, size)
            for i in 0..<writes {
                head.send(i)
                total &+= expectValue(current.value, i * size)
            }
            return total
        }

        func snapshot() -> [Int] { [current.value] }
    }

    /// The floor: plain stored values, without dynamic exclusivity checks.
    final class BaselineCase: ReactivityCase {
        @exclusivity(unchecked) var head = 0
        @exclusivity(unchecked) var current = 0
        @exclusivity(unchecked) var effectRuns = 0

        init() { propagate() }

        func write(_ value: Int) {
            if value == head { return }
            head = value
            propagate()
        }

        func propagate() {
            var result = 0
            for _ in 0..<size { result += head }
            if result != current || effectRuns == 0 {
                current = result
                effectRuns += 1
            }
        }

        func run() -> Int {
            write(1)
            var total = expectValue(current, size)
            for i in 0..<writes {
                write(i)
                total &+= expectValue(current, i * size)
            }
            return total
        }

        func snapshot() -> [Int] { [current] }
    }
}
