import Observation
import OpenCombine
import ReactorCore

/// Kairo's triangle: a chain of 10 computeds under one source, and a sum of the
/// source and the first nine read by one effect; a run makes 101 batches, each
/// writing the source and reading the sum inside the batch.
enum Triangle {
    static let width = 10
    static let writes = 100
    /// 1 + 2 + ... + width: the sum after writing 1.
    static let constant = (1...width).reduce(0, +)

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
        let chain: [Computed<Int>]
        let sum: Computed<Int>

        init() {
            let reactor = harness.reactor
            let head = ReactorSignal(0)
            var chain = [reactor.computed { head.value + 1 }]
            for _ in 1..<width {
                let previous = chain[chain.count - 1]
                chain.append(reactor.computed { previous.value + 1 })
            }
            // The list is the source and the first width - 1 computeds.
            let listed = Array(chain.prefix(width - 1))
            let sum = reactor.computed {
                var total = head.value
                for node in listed { total += node.value }
                return total
            }
            self.head = head
            self.chain = chain
            self.sum = sum
            harness.effect { _ = sum.value }
        }

        var effectRuns: Int { harness.counter.runs }

        func run() -> Int {
            let reactor = harness.reactor
            var total = reactor.batch {
                head.value = 1
                return expectValue(sum.value, constant)
            }
            for i in 0..<writes {
                total &+= reactor.batch {
                    head.value = i
                    return expectValue(sum.value, constant - width + i * width)
                }
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
            var list: [() -> Int] = []
            var current: () -> Int = { head.value }
            for _ in 0..<width {
                let previous = current
                list.append(previous)
                current = { previous() + 1 }
            }
            let sum = {
                var total = 0
                for node in list { total += node() }
                return total
            }
            self.sum = sum
            scheduler.effect { _ = sum() }
        }

        var effectRuns: Int { scheduler.counter.runs }

        func run() -> Int {
            var total = 0
            scheduler.batch {
                head.value = 1
                total = expectValue(sum(), constant)
            }
            for i in 0..<writes {
                scheduler.batch {
                    head.value = i
                    total &+= expectValue(sum(), constant - width + i * width)
                }
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
            var list: [CurrentValueSubject<Int, Never>] = []
            var current = head
            for _ in 0..<width {
                list.append(current)
                current = graph.map(current) { $0 + 1 }
            }
            let listed = list
            sum = graph.combineLatest(listed) {
                var total = 0
                for node in listed { total += node.value }
                return total
            }
            graph.effect(sum)
        }

        var effectRuns: Int { graph.counter.runs }

        func run() -> Int {
            head.send(1)
            var total = expectValue(sum.value, constant)
            for i in 0..<writes {
                head.send(i)
                total &+= expectValue(sum.value, constant - width + i * width)
            }
            return total
        }

        func snapshot() -> [Int] { [sum.value] }
    }

    /// The floor: plain stored values, without dynamic exclusivity checks.
    final class BaselineCase: ReactivityCase {
        @exclusivity(unchecked) var head = 0
        @exclusivity(unchecked) var chain = [Int](repeating: 0, count: width)
        @exclusivity(unchecked) var sum = 0
        @exclusivity(unchecked) var effectRuns = 0

        init() { propagate() }

        func write(_ value: Int) {
            if value == head { return }
            head = value
            propagate()
        }

        func propagate() {
            var value = head
            var total = head
            for index in 0..<width {
                value += 1
                chain[index] = value
                if index < width - 1 { total += value }
            }
            sum = total
            effectRuns += 1
        }

        func run() -> Int {
            write(1)
            var total = expectValue(sum, constant)
            for i in 0..<writes {
                write(i)
                total &+= expectValue(sum, constant - width + i * width)
            }
            return total
        }

        func snapshot() -> [Int] { [sum] }
    }
}
