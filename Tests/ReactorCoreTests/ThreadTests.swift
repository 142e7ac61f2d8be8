import Dispatch
import Foundation
import Synchronization
import Testing
import ReactorCore

/// One thread's counter. `@unchecked Sendable`: its only state is a
/// `@Reactive` property, whose value the graph lock guards (the wrapper's
/// own storage field is a `var` the compiler cannot see is never reassigned).
private final class Slot: @unchecked Sendable {
    @Reactive var count = 0
}

/// Runs `body(index)` on `count` new threads at once and waits for all of them.
private func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let group = DispatchGroup()
    let start = DispatchSemaphore(value: 0)
    for index in 0..<count {
        group.enter()
        let thread = Thread {
            start.wait()
            body(index)
            group.leave()
        }
        thread.stackSize = 1 << 20
        thread.start()
    }
    for _ in 0..<count { start.signal() }
    group.wait()
}

/// Detects two computation bodies running at the same time.
private final class OverlapDetector: Sendable {
    private let running = Atomic<Int>(0)
    private let overlaps = Atomic<Int>(0)
    var overlapCount: Int { overlaps.load(ordering: .relaxed) }

    func enter() {
        if running.add(1, ordering: .acquiringAndReleasing).newValue > 1 {
            overlaps.add(1, ordering: .relaxed)
        }
    }

    func leave() { running.subtract(1, ordering: .acquiringAndReleasing) }
}

/// Non-Sendable state shared with closures that the runtime runs under its lock.
private final class Shared<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}

@Suite struct ThreadTests {
    static let threads = 8
    static let writesPerThread = 100_000

    @Test func eightThreadsWritingReactivePropertiesGiveExactCounts() {
        let reactor = Reactor()
        let slots = (0..<Self.threads).map { _ in Slot() }
        let detector = OverlapDetector()

        // One autorun per slot: its last value and its runs.
        let perSlot = Shared([(last: Int, runs: Int)](repeating: (0, 0), count: Self.threads))
        for (index, slot) in slots.enumerated() {
            reactor.autorun("slot \(index)") { _ in
                detector.enter()
                perSlot.value[index] = (slot.count, perSlot.value[index].runs + 1)
                detector.leave()
            }
        }
        // An autorun summing all of them.
        let sum = Shared((last: 0, runs: 0))
        reactor.autorun("sum") { _ in
            detector.enter()
            sum.value = (slots.reduce(0) { $0 + $1.count }, sum.value.runs + 1)
            detector.leave()
        }
        // A computed total and an autorun reading it.
        let totalRuns = Shared(0)
        let total = reactor.computed("total") {
            totalRuns.value += 1
            return slots.reduce(0) { $0 + $1.count }
        }
        let reader = Shared((last: 0, runs: 0))
        reactor.autorun("reader") { _ in
            detector.enter()
            reader.value = (total.value, reader.value.runs + 1)
            detector.leave()
        }

        let writes = Self.writesPerThread
        onThreads(Self.threads) { index in
            let slot = slots[index]
            for _ in 0..<writes { slot.count += 1 }
        }

        let expectedTotal = Self.threads * writes
        let allWrites = expectedTotal
        for index in 0..<Self.threads {
            #expect(slots[index].count == writes)
            #expect(perSlot.value[index].last == writes)
            #expect(perSlot.value[index].runs == writes + 1)  // one rerun per write
        }
        #expect(sum.value.last == expectedTotal)
        #expect(sum.value.runs == allWrites + 1)
        #expect(total.value == expectedTotal)
        #expect(totalRuns.value == allWrites + 1)
        #expect(reader.value.last == expectedTotal)
        #expect(reader.value.runs == allWrites + 1)
        #expect(detector.overlapCount == 0)
    }

    @Test func batchedWritesFromThreadsRerunOncePerBatch() {
        let reactor = Reactor()
        let slots = (0..<Self.threads).map { _ in Slot() }
        let sum = Shared((last: 0, runs: 0))
        reactor.autorun { _ in sum.value = (slots.reduce(0) { $0 + $1.count }, sum.value.runs + 1) }
        let batches = 1_000
        onThreads(Self.threads) { index in
            for _ in 0..<batches {
                reactor.batch {
                    for _ in 0..<10 { slots[index].count += 1 }
                }
            }
        }
        #expect(sum.value.last == Self.threads * batches * 10)
        #expect(sum.value.runs == Self.threads * batches + 1)
    }

    @Test func writesFromThreadsWhileADispatchQueueFlushes() {
        let queue = DispatchQueue(label: "ThreadTests.dispatch")
        let reactor = Reactor(scheduler: .dispatch(queue))
        let slots = (0..<4).map { _ in Slot() }
        let detector = OverlapDetector()
        let seen = Shared((last: 0, runs: 0))
        reactor.autorun { _ in
            detector.enter()
            seen.value = (slots.reduce(0) { $0 + $1.count }, seen.value.runs + 1)
            detector.leave()
        }
        let writes = 20_000
        onThreads(slots.count) { index in
            for _ in 0..<writes { slots[index].count += 1 }
        }
        // The last flush scheduled by a write runs the rerun, then this callback.
        let done = DispatchSemaphore(value: 0)
        let final = Shared(0)
        reactor.afterFlush {
            final.value = seen.value.last
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 120) == .success)
        #expect(final.value == slots.count * writes)
        #expect(seen.value.runs >= 2)
        #expect(seen.value.runs <= slots.count * writes + 1)
        #expect(detector.overlapCount == 0)
    }

    @Test func manualFlushesAndWritesFromManyThreads() {
        let reactor = Reactor(scheduler: .manual)
        let dependency = Dependency("shared")
        let detector = OverlapDetector()
        let runs = Shared(0)
        let computation = reactor.autorun { _ in
            detector.enter()
            dependency.depend()
            runs.value += 1
            detector.leave()
        }
        onThreads(Self.threads) { index in
            for step in 0..<2_000 {
                dependency.changed()
                if (step + index) % 3 == 0 { reactor.flush() }
                if step % 500 == 0 { _ = computation.isInvalidated }
            }
        }
        reactor.flush()
        #expect(!computation.isInvalidated)
        #expect(runs.value >= 2)
        #expect(detector.overlapCount == 0)
        computation.stop()
    }

    @Test func computedReadFromManyThreads() {
        let reactor = Reactor()
        let slot = Slot()
        let bodyRuns = Shared(0)
        let doubled = reactor.computed { bodyRuns.value += 1; return slot.count * 2 }
        onThreads(Self.threads) { index in
            for step in 0..<5_000 {
                if index == 0 { slot.count += 1 }
                let value = doubled.value
                precondition(value % 2 == 0)
                _ = step
            }
        }
        #expect(doubled.value == 10_000)
        #expect(bodyRuns.value <= 5_001)
    }

    @Test func firstAccessFromManyThreadsNamesEachPropertyOnce() {
        let owners = (0..<5_000).map { _ in Slot() }
        onThreads(Self.threads) { index in
            // Each thread walks the owners from its own starting point.
            let offset = index * owners.count / 8
            for step in 0..<owners.count {
                let owner = owners[(offset + step) % owners.count]
                if index % 2 == 0 { _ = owner.count } else { owner.count = 0 }
            }
        }
        for owner in owners {
            #expect(owner.$count.projectedDependency.name == "Slot.count")
        }
    }

    @Test func autorunsCreatedAndStoppedOnManyThreads() {
        let reactor = Reactor()
        let slot = Slot()
        let alive = Atomic<Int>(0)
        onThreads(Self.threads) { _ in
            for _ in 0..<1_000 {
                let computation = reactor.autorun { c in
                    _ = slot.count
                    if c.isFirstRun { alive.add(1, ordering: .relaxed) }
                }
                computation.onStop { _ in alive.subtract(1, ordering: .relaxed) }
                // `+=` reads then writes: a batch makes the two one operation.
                reactor.batch { slot.count += 1 }
                computation.stop()
            }
        }
        #expect(alive.load(ordering: .relaxed) == 0)
        #expect(slot.count == Self.threads * 1_000)
        #expect(!slot.$count.projectedDependency.hasDependents)
    }

    @Test func computedChainsBuiltReadAndDroppedOnManyThreads() {
        // Shared sources, per-thread chains of computeds read by an autorun:
        // links are reused across reruns, and chains dropped inside a batch
        // are kept until the batch ends.
        let reactor = Reactor()
        let sources = (0..<4).map { _ in Slot() }
        let reruns = Atomic<Int>(0)
        onThreads(Self.threads) { index in
            for round in 0..<200 {
                let source = sources[(index + round) % sources.count]
                var chain = [reactor.computed { source.count + 1 }]
                for _ in 0..<5 {
                    let previous = chain[chain.count - 1]
                    chain.append(reactor.computed { previous.value + 1 })
                }
                let last = chain[chain.count - 1]
                let effect = reactor.autorun { _ in
                    precondition(last.value >= 6)
                    reruns.add(1, ordering: .relaxed)
                }
                for _ in 0..<5 { reactor.batch { source.count += 1 } }
                reactor.batch {
                    effect.stop()
                    chain = []
                }
                _ = chain
            }
        }
        #expect(sources.reduce(0) { $0 + $1.count } == Self.threads * 200 * 5)
        #expect(reruns.load(ordering: .relaxed) >= Self.threads * 200)
        for source in sources {
            #expect(!source.$count.projectedDependency.hasDependents)
        }
    }
}
