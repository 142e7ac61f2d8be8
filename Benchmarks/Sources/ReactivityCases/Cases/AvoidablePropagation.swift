import Observation
import OpenCombine
import ReactorCore

/// Kairo's avoidable propagation: a chain of five computeds whose second always
/// returns 0, so a write need not reach the heavy third computed nor the heavy
/// effect at the end; a run writes the source once unbatched, then 1,000 times
/// in batches, reading the end of the chain in each.
enum AvoidablePropagation {
    static let writes = 1000

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
        let last: Computed<Int>

        init() {
            let reactor = harness.reactor
            let head = ReactorSignal(0)
            let computed1 = reactor.computed { head.value }
            let computed2 = reactor.computed { _ = computed1.value; return 0 }
            let computed3 = reactor.computed { busy(); return computed2.value + 1 }
            let computed4 = reactor.computed { computed3.value + 2 }
            let computed5 = reactor.computed { computed4.value + 3 }
            self.head = head
            self.last = computed5
            harness.effect { _ = computed5.value; busy() }
        }

        var effectRuns: Int { harness.counter.runs }

        func run() -> Int {
            let reactor = harness.reactor
            head.value = 1
            var total = expectValue(last.value, 6)
            for i in 0..<writes {
                total &+= reactor.batch {
                    head.value = i
                    return expectValue(last.value, 6)
                }
            }
            return total
        }

        func snapshot() -> [Int] { [last.value] }
    }

    final class ObservationCase: ReactivityCase {
        let scheduler = ObservationScheduler()
        let head = ObservedSignal(0)
        let last: () -> Int

        init() {
            let head = head
            let computed1 = { head.value }
            let computed2 = { _ = computed1(); return 0 }
            let computed3 = { busy(); return computed2() + 1 }
            let computed4 = { computed3() + 2 }
            let computed5 = { computed4() + 3 }
            last = computed5
            scheduler.effect { _ = computed5(); busy() }
        }

        var effectRuns: Int { scheduler.counter.runs }

        func run() -> Int {
            scheduler.batch { head.value = 1 }
            var total = expectValue(last(), 6)
            for i in 0..<writes {
                scheduler.batch {
                    head.value = i
                    total &+= expectValue(last(), 6)
                }
            }
            return total
        }

        func snapshot() -> [Int] { [last()] }
    }

    final class OpenCombineCase: ReactivityCase {
        let graph = CombineGraph()
        let head = CurrentValueSubject<Int, Never>(0)
        let last: CurrentValueSubject<Int, Never>

        init() {
            let computed1 = graph.map(head) { $0 }
            let computed2 = graph.map(computed1) { _ in 0 }
            let computed3 = graph.map(computed2) { value in busy(); return value + 1 }
            let computed4 = graph.map(computed3) { $0 + 2 }
            last = graph.map(computed4) { $0 + 3 }
            graph.effect(last) { _ in busy() }
        }

        var effectRuns: Int { graph.counter.runs }

        func run() -> Int {
            head.send(1)
            var total = expectValue(last.value, 6)
            for i in 0..<writes {
                head.send(i)
                total &+= expectValue(last.value, 6)
            }
            return total
        }

        func snapshot() -> [Int] { [last.value] }
    }

    /// The floor: plain stored values, without dynamic exclusivity checks.
    final class BaselineCase: ReactivityCase {
        @exclusivity(unchecked) var head = 0
        @exclusivity(unchecked) var computed1 = 0
        @exclusivity(unchecked) var computed2 = 0
        @exclusivity(unchecked) var computed5 = 0
        @exclusivity(unchecked) var effectRuns = 0

        init() {
            computed1 = head
            computed2 = 0
            recomputeFromThird()
        }

        func write(_ value: Int) {
            if value == head { return }
            head = value
            computed1 = head
            let second = 0
            if second != computed2 {
                computed2 = second
                recomputeFromThird()
            }
        }

        func recomputeFromThird() {
            busy()
            computed5 = computed2 + 1 + 2 + 3
            busy()
            effectRuns += 1
        }

        func run() -> Int {
            write(1)
            var total = expectValue(computed5, 6)
            for i in 0..<writes {
                write(i)
                total &+= expectValue(computed5, 6)
            }
            return total
        }

        func snapshot() -> [Int] { [computed5] }
    }
}
