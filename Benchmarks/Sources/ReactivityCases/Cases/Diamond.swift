import Observation
import OpenCombine
import ReactorCore

/// Kairo's diamond: 5 computeds (`head + 1`) under one source, joined by a sum
/// that one effect reads; a run writes the source 501 times, each in its own batch.
enum Diamond {
    static let width = 5
    static let writes = 500

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
        let sum: Computed<Int>

        init() {
            let reactor = harness.reactor
            let head = ReactorSignal(0)
            let branches = (0..<width).map { _ in reactor.computed { head.value + 1 } }
            let sum = reactor.computed {
                var total = 0
                for branch in branches { total += branch.value }
                return total
            }
            self.head = head
            self.sum = sum
            harness.effect { _ = sum.value }
        }

        var effectRuns: Int { harness.counter.runs }

        func run() -> Int {
            let reactor = harness.reactor
            reactor.batch { head.value = 1 }
            var total = expectValue(sum.value, 2 * width)
            for i in 0..<writes {
                reactor.batch { head.value = i }
                total &+= expectValue(sum.value, (i + 1) * width)
            }
            return total
        }

        func snapshot() -> [Int] { [sum.value] }
    }

    final class ObservationCase: ReactivityCase {
        let scheduler = ObservationScheduler()
        let head = ObservedSignal(0)
        let sum: () -> Int

        init() {
            let head = head
            let branches: [() -> Int] = (0..<width).map { _ in { head.value + 1 } }
            let sum = {
                var total = 0
                for branch in branches { total += branch() }
                return total
            }
            self.sum = sum
            scheduler.effect { _ = sum() }
        }

        var effectRuns: Int { scheduler.counter.runs }

        func run() -> Int {
            scheduler.batch { head.value = 1 }
            var total = expectValue(sum(), 2 * width)
            for i in 0..<writes {
                scheduler.batch { head.value = i }
                total &+= expectValue(sum(), (i + 1) * width)
            }
            return total
        }

        func snapshot() -> [Int] { [sum()] }
    }

    final class OpenCombineCase: ReactivityCase {
        let graph = CombineGraph()
        let head = CurrentValueSubject<Int, Never>(0)
        let sum: CurrentValueSubject<Int, Never>

        init() {
            let graph = graph
            let head = head
            let branches = (0..<width).map { _ in graph.map(head) { $0 + 1 } }
            sum = graph.combineLatest(branches) {
                var total = 0
                for branch in branches { total += branch.value }
                return total
            }
            graph.effect(sum)
        }

        var effectRuns: Int { graph.counter.runs }

        func run() -> Int {
            head.send(1)
            var total = expectValue(sum.value, 2 * width)
            for i in 0..<writes {
                head.send(i)
                total &+= expectValue(sum.value, (i + 1) * width)
            }
            return total
        }

        func snapshot() -> [Int] { [sum.value] }
    }

    /// The floor: plain stored values, without dynamic exclusivity checks.
    final class BaselineCase: ReactivityCase {
        @exclusivity(unchecked) var head = 0
        @exclusivity(unchecked) var branches = [Int](repeating: 0, count: width)
        @exclusivity(unchecked) var sum = 0
        @exclusivity(unchecked) var effectRuns = 0

        init() { propagate() }

        func write(_ value: Int) {
            if value == head { return }
            head = value
            propagate()
        }

        func propagate() {
            var total = 0
            for index in 0..<width {
                branches[index] = head + 1
                total += branches[index]
            }
            sum = total
            effectRuns += 1
        }

        func run() -> Int {
            write(1)
            var total = expectValue(sum, 2 * width)
            for i in 0..<writes {
                write(i)
                total &+= expectValue(sum, (i + 1) * width)
            }
            return total
        }

        func snapshot() -> [Int] { [sum] }
    }
}
