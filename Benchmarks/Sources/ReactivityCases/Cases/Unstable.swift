import Observation
import OpenCombine
import ReactorCore

/// Kairo's unstable dependencies: a computed that reads, 20 times, either
/// `double` or `inverse` depending on the source's parity, so its dependencies
/// change with every write; a run writes the source 101 times, each in its own batch.
enum Unstable {
    static let reads = 20
    static let writes = 100

    /// The value of the unstable computed for a source value.
    static func expected(_ head: Int) -> Int {
        reads * (head % 2 != 0 ? head * 2 : -head)
    }

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
            let reactor = harness.reactor
            let head = ReactorSignal(0)
            let double = reactor.computed { head.value * 2 }
            let inverse = reactor.computed { -head.value }
            let current = reactor.computed {
                var result = 0
                for _ in 0..<reads { result += head.value % 2 != 0 ? double.value : inverse.value }
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
            let total = expectValue(current.value, 2 * reads)
            for i in 0..<writes {
                reactor.batch { head.value = i }
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
            let double = { head.value * 2 }
            let inverse = { -head.value }
            let current = {
                var result = 0
                for _ in 0..<reads { result += head.value % 2 != 0 ? double() : inverse() }
                return result
            }
            self.current = current
            scheduler.effect { _ = current() }
        }

        var effectRuns: Int { scheduler.counter.runs }

        func run() -> Int {
            scheduler.batch { head.value = 1 }
            let total = expectValue(current(), 2 * reads)
            for i in 0..<writes {
                scheduler.batch { head.value = i }
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
            let double = graph.map(head) { $0 * 2 }
            let inverse = graph.map(head) { -$0 }
            current = graph.combineLatest([head, double, inverse]) {
                var result = 0
                for _ in 0..<reads { result += head.value % 2 != 0 ? double.value : inverse.value }
                return result
            }
            graph.effect(current)
        }

        var effectRuns: Int { graph.counter.runs }

        func run() -> Int {
            head.send(1)
            let total = expectValue(current.value, 2 * reads)
            for i in 0..<writes {
                head.send(i)
            }
            return total
        }

        func snapshot() -> [Int] { [current.value] }
    }

    /// The floor: plain stored values, without dynamic exclusivity checks.
    final class BaselineCase: ReactivityCase {
        @exclusivity(unchecked) var head = 0
        @exclusivity(unchecked) var double = 0
        @exclusivity(unchecked) var inverse = 0
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
            if head % 2 != 0 {
                double = head * 2
                for _ in 0..<reads { result += double }
            } else {
                inverse = -head
                for _ in 0..<reads { result += inverse }
            }
            if result != current || effectRuns == 0 {
                current = result
                effectRuns += 1
            }
        }

        func run() -> Int {
            write(1)
            let total = expectValue(current, 2 * reads)
            for i in 0..<writes {
                write(i)
            }
            return total
        }

        func snapshot() -> [Int] { [current] }
    }
}
