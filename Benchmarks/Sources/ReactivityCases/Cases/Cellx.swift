import Observation
import OpenCombine
import ReactorCore

/// The cellx benchmark: four sources under `layers` layers of four computeds
/// (`prop1 = prop2`, `prop2 = prop1 - prop3`, `prop3 = prop2 + prop4`,
/// `prop4 = prop3` of the layer above), each computed read by an effect.
///
/// A run reads the last layer, writes the four sources in one batch and reads
/// the last layer again. The JS rebuilds the graph for each run and times only
/// that part; here the graph is built once and the runs alternate the sources
/// between (1, 2, 3, 4) and (4, 3, 2, 1), so each run propagates a full change.
enum Cellx {
    typealias Quad = (Int, Int, Int, Int)

    static let initial: Quad = (1, 2, 3, 4)
    static let written: Quad = (4, 3, 2, 1)

    /// The last layer's values for the given sources (the arithmetic, by hand).
    static func endValues(layers: Int, sources: Quad) -> [Int] {
        var (p1, p2, p3, p4) = sources
        for _ in 0..<layers {
            (p1, p2, p3, p4) = (p2, p1 - p3, p2 + p4, p3)
        }
        return [p1, p2, p3, p4]
    }

    static func make(_ implementation: Implementation, layers: Int) -> any ReactivityCase {
        switch implementation {
        case .reactorCore: ReactorCoreCase(layers: layers)
        case .observation: ObservationCase(layers: layers)
        case .openCombine: OpenCombineCase(layers: layers)
        case .baseline: BaselineCase(layers: layers)
        case .openCombineMapChain: preconditionFailure("a plain map chain has no joins: no form of this case")
        }
    }

    /// Which sources the next run writes, and the end values to expect before and after.
    struct Toggle {
        let initialEnd: [Int]
        let writtenEnd: [Int]
        var wroteInitial = true

        init(layers: Int) {
            initialEnd = Cellx.endValues(layers: layers, sources: Cellx.initial)
            writtenEnd = Cellx.endValues(layers: layers, sources: Cellx.written)
        }

        /// Flips, and returns (sources to write, end values before, end values after).
        mutating func next() -> (Quad, [Int], [Int]) {
            defer { wroteInitial.toggle() }
            return wroteInitial ? (Cellx.written, initialEnd, writtenEnd) : (Cellx.initial, writtenEnd, initialEnd)
        }
    }

    final class ReactorCoreCase: ReactivityCase {
        let harness = ReactorHarness()
        let sources: [ReactorSignal]
        let end: [Computed<Int>]
        var toggle: Toggle

        init(layers: Int) {
            let reactor = harness.reactor
            let s = [ReactorSignal(1), ReactorSignal(2), ReactorSignal(3), ReactorSignal(4)]
            var layer = [
                reactor.computed { s[1].value },
                reactor.computed { s[0].value - s[2].value },
                reactor.computed { s[1].value + s[3].value },
                reactor.computed { s[2].value },
            ]
            for _ in 1..<layers {
                let m = layer
                layer = [
                    reactor.computed { m[1].value },
                    reactor.computed { m[0].value - m[2].value },
                    reactor.computed { m[1].value + m[3].value },
                    reactor.computed { m[2].value },
                ]
                for node in m { harness.effect { _ = node.value } }
            }
            for node in layer { harness.effect { _ = node.value } }
            sources = s
            end = layer
            toggle = Toggle(layers: layers)
        }

        var effectRuns: Int { harness.counter.runs }

        func run() -> Int {
            let (write, before, after) = toggle.next()
            var total = 0
            for index in 0..<4 { total &+= expectValue(end[index].value, before[index]) }
            harness.reactor.batch {
                sources[0].value = write.0
                sources[1].value = write.1
                sources[2].value = write.2
                sources[3].value = write.3
            }
            for index in 0..<4 { total &+= expectValue(end[index].value, after[index]) }
            return total
        }

        func snapshot() -> [Int] { end.map(\.value) }
    }

    final class ObservationCase: ReactivityCase {
        let scheduler = ObservationScheduler()
        let sources = [ObservedSignal(1), ObservedSignal(2), ObservedSignal(3), ObservedSignal(4)]
        let end: [ObservedSignal]
        var toggle: Toggle

        /// Computeds as functions would recompute the layers above them
        /// exponentially often (each layer reads the previous one twice), so
        /// here each computed is a derived cell kept up to date by an effect.
        init(layers: Int) {
            var layer = sources
            for _ in 0..<layers {
                let m = layer
                layer = [
                    scheduler.derived { m[1].value },
                    scheduler.derived { m[0].value - m[2].value },
                    scheduler.derived { m[1].value + m[3].value },
                    scheduler.derived { m[2].value },
                ]
                for node in layer { scheduler.effect { _ = node.value } }
            }
            end = layer
            toggle = Toggle(layers: layers)
        }

        var effectRuns: Int { scheduler.counter.runs }

        func run() -> Int {
            let (write, before, after) = toggle.next()
            var total = 0
            for index in 0..<4 { total &+= expectValue(end[index].value, before[index]) }
            scheduler.batch {
                sources[0].value = write.0
                sources[1].value = write.1
                sources[2].value = write.2
                sources[3].value = write.3
            }
            for index in 0..<4 { total &+= expectValue(end[index].value, after[index]) }
            return total
        }

        func snapshot() -> [Int] { end.map(\.value) }
    }

    final class OpenCombineCase: ReactivityCase {
        let graph = CombineGraph()
        let sources = [1, 2, 3, 4].map { CurrentValueSubject<Int, Never>($0) }
        let end: [CurrentValueSubject<Int, Never>]
        var toggle: Toggle

        init(layers: Int) {
            let graph = graph
            var layer = sources
            for _ in 0..<layers {
                let m = layer
                layer = [
                    graph.map(m[1]) { $0 },
                    graph.combineLatest([m[0], m[2]]) { m[0].value - m[2].value },
                    graph.combineLatest([m[1], m[3]]) { m[1].value + m[3].value },
                    graph.map(m[2]) { $0 },
                ]
                for node in layer { graph.effect(node) }
            }
            end = layer
            toggle = Toggle(layers: layers)
        }

        var effectRuns: Int { graph.counter.runs }

        func run() -> Int {
            let (write, before, after) = toggle.next()
            var total = 0
            for index in 0..<4 { total &+= expectValue(end[index].value, before[index]) }
            sources[0].send(write.0)
            sources[1].send(write.1)
            sources[2].send(write.2)
            sources[3].send(write.3)
            for index in 0..<4 { total &+= expectValue(end[index].value, after[index]) }
            return total
        }

        func snapshot() -> [Int] { end.map(\.value) }
    }

    /// The floor: plain stored values, without dynamic exclusivity checks.
    final class BaselineCase: ReactivityCase {
        let layers: Int
        @exclusivity(unchecked) var sources = [1, 2, 3, 4]
        /// Four values per layer, layer after layer.
        @exclusivity(unchecked) var values: [Int]
        @exclusivity(unchecked) var effectRuns = 0
        @exclusivity(unchecked) var toggle: Toggle

        init(layers: Int) {
            self.layers = layers
            values = [Int](repeating: 0, count: 4 * layers)
            toggle = Toggle(layers: layers)
            propagate(countingAll: true)
        }

        func propagate(countingAll: Bool) {
            var (p1, p2, p3, p4) = (sources[0], sources[1], sources[2], sources[3])
            for layer in 0..<layers {
                (p1, p2, p3, p4) = (p2, p1 - p3, p2 + p4, p3)
                let base = 4 * layer
                if countingAll || values[base] != p1 { values[base] = p1; effectRuns += 1 }
                if countingAll || values[base + 1] != p2 { values[base + 1] = p2; effectRuns += 1 }
                if countingAll || values[base + 2] != p3 { values[base + 2] = p3; effectRuns += 1 }
                if countingAll || values[base + 3] != p4 { values[base + 3] = p4; effectRuns += 1 }
            }
        }

        func run() -> Int {
            let (write, before, after) = toggle.next()
            let last = 4 * (layers - 1)
            var total = 0
            for index in 0..<4 { total &+= expectValue(values[last + index], before[index]) }
            sources = [write.0, write.1, write.2, write.3]
            propagate(countingAll: false)
            for index in 0..<4 { total &+= expectValue(values[last + index], after[index]) }
            return total
        }

        func snapshot() -> [Int] { Array(values[(4 * (layers - 1))...]) }
    }
}
