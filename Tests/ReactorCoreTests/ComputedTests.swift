import Testing
import ReactorCore

/// State for the computed tests: plain reactive inputs.
private final class Inputs {
    @Reactive var a = 0
    @Reactive var b = 0
    @Reactive var flag = false
}

/// A value with no `Equatable` conformance: every recomputation propagates.
private struct Opaque { let number: Int }

/// An `Equatable` value with an identity: equal boxes can be told apart.
private final class Box: Equatable {
    let number: Int
    init(_ number: Int) { self.number = number }
    static func == (lhs: Box, rhs: Box) -> Bool { lhs.number == rhs.number }
}

@Suite struct ComputedTests {
    @Test func lazyUntilRead() {
        let reactor = Reactor()
        let inputs = Inputs()
        var runs = 0
        let doubled = reactor.computed { runs += 1; return inputs.a * 2 }
        #expect(runs == 0)
        inputs.a = 1
        #expect(runs == 0)
        #expect(doubled.value == 2)
        #expect(runs == 1)
    }

    @Test func memoizedUntilASourceChanges() {
        let reactor = Reactor()
        let inputs = Inputs()
        var runs = 0
        let doubled = reactor.computed { runs += 1; return inputs.a * 2 }
        #expect(doubled.value == 0)
        #expect(doubled.value == 0)
        #expect(runs == 1)
        inputs.b = 5  // not a source
        #expect(doubled.value == 0)
        #expect(runs == 1)
        inputs.a = 3
        #expect(runs == 1)  // still lazy after the write
        #expect(doubled.value == 6)
        #expect(doubled.value == 6)
        #expect(runs == 2)
    }

    @Test func readOutsideAnyComputation() {
        let reactor = Reactor(scheduler: .manual)
        let inputs = Inputs()
        let sum = reactor.computed { inputs.a + inputs.b }
        #expect(sum.value == 0)
        inputs.a = 2
        inputs.b = 3
        // No flush needed: a read pulls the fresh value.
        #expect(sum.value == 5)
        #expect(reactor.currentComputation == nil)
    }

    @Test func diamondRerunsItsEffectOncePerWrite() {
        let reactor = Reactor()
        let inputs = Inputs()
        let left = reactor.computed("left") { inputs.a * 2 }
        let right = reactor.computed("right") { inputs.a + 1 }
        var seen: [[Int]] = []
        reactor.autorun { _ in seen.append([inputs.a, left.value, right.value]) }
        for value in 1...5 { inputs.a = value }
        // One run per write, and never an inconsistent (glitched) combination.
        #expect(seen == (0...5).map { [$0, $0 * 2, $0 + 1] })
    }

    @Test func diamondWithManualFlush() {
        let reactor = Reactor(scheduler: .manual)
        let inputs = Inputs()
        var leftRuns = 0, rightRuns = 0
        let left = reactor.computed { leftRuns += 1; return inputs.a * 2 }
        let right = reactor.computed { rightRuns += 1; return inputs.a * 3 }
        var seen: [Int] = []
        reactor.autorun { _ in seen.append(left.value + right.value) }
        inputs.a = 1
        inputs.a = 2
        #expect(seen == [0])
        reactor.flush()
        #expect(seen == [0, 10])
        #expect(leftRuns == 2)
        #expect(rightRuns == 2)
    }

    @Test func triangleRerunsOncePerWrite() {
        // a -> computed b -> effect, and a -> effect directly.
        let reactor = Reactor()
        let inputs = Inputs()
        let doubled = reactor.computed { inputs.a * 2 }
        var seen: [[Int]] = []
        reactor.autorun { _ in seen.append([inputs.a, doubled.value]) }
        inputs.a = 1
        inputs.a = 2
        #expect(seen == [[0, 0], [1, 2], [2, 4]])

        // The other reading order.
        var reversed: [[Int]] = []
        reactor.autorun { _ in reversed.append([doubled.value, inputs.a]) }
        inputs.a = 3
        #expect(reversed == [[4, 2], [6, 3]])
        #expect(seen.last == [3, 6])
        #expect(seen.count == 4)
    }

    @Test func equalResultCutsOffPropagation() {
        let reactor = Reactor()
        let inputs = Inputs()
        var parityRuns = 0
        let parity = reactor.computed { parityRuns += 1; return inputs.a % 2 }
        var effectRuns = 0
        reactor.autorun { _ in _ = parity.value; effectRuns += 1 }
        inputs.a = 2  // parity recomputes to 0 again
        inputs.a = 4
        #expect(parityRuns == 3)
        #expect(effectRuns == 1)
        inputs.a = 5  // parity changes
        #expect(effectRuns == 2)
        #expect(parity.value == 1)
    }

    @Test func nonEquatableResultAlwaysPropagates() {
        let reactor = Reactor()
        let inputs = Inputs()
        let parity = reactor.computed { Opaque(number: inputs.a % 2) }
        var effectRuns = 0
        reactor.autorun { _ in _ = parity.value; effectRuns += 1 }
        inputs.a = 2
        inputs.a = 4
        #expect(effectRuns == 3)
    }

    @Test func equalResultIsKeptAsTheNewValueAndTheOldOneReleased() {
        let reactor = Reactor()
        let inputs = Inputs()
        var made: [Box] = []
        let parity = reactor.computed { () -> Box in
            let box = Box(inputs.a % 2)
            made.append(box)
            return box
        }
        var effectRuns = 0
        reactor.autorun { _ in _ = parity.value; effectRuns += 1 }
        weak let first = made[0]
        made.removeAll()
        inputs.a = 2  // an equal box: no change, but the value is the new box
        #expect(effectRuns == 1)
        #expect(parity.value === made.last)
        #expect(first == nil)
    }

    @Test func nonEquatableComputedReleasedDuringItsOwnRefresh() {
        let reactor = Reactor(scheduler: .manual)
        let inputs = Inputs()
        var holder: Computed<Opaque>?
        weak var released: Computed<Opaque>?
        holder = reactor.computed { if inputs.a == 1 { holder = nil }; return Opaque(number: inputs.a) }
        released = holder
        var seen: [Int?] = []
        reactor.autorun { _ in seen.append(holder?.value.number) }
        inputs.a = 1
        reactor.flush()
        #expect(holder == nil)
        #expect(released == nil)
        // The reader was checking, not invalidated: a source gone away is no change.
        #expect(seen == [0])
    }

    @Test func chainOfComputeds() {
        let reactor = Reactor()
        let inputs = Inputs()
        var chain = [reactor.computed { inputs.a }]
        for _ in 1..<20 {
            let previous = chain[chain.count - 1]
            chain.append(reactor.computed { previous.value + 1 })
        }
        let last = chain[chain.count - 1]
        var seen: [Int] = []
        reactor.autorun { _ in seen.append(last.value) }
        inputs.a = 10
        inputs.a = 20
        #expect(seen == [19, 29, 39])
    }

    @Test func deepChainOfComputeds() {
        // cellx-sized: 5,000 layers. A first read from the far end recurses
        // through every body (as in any lazy pull-based runtime), so the
        // layers are first read in order here; propagating a write then walks
        // the whole depth inside the runtime.
        let reactor = Reactor()
        let inputs = Inputs()
        var chain = [reactor.computed { inputs.a }]
        for _ in 1..<5_000 {
            let previous = chain[chain.count - 1]
            chain.append(reactor.computed { previous.value + 1 })
        }
        for layer in chain { _ = layer.value }
        let last = chain[chain.count - 1]
        var seen: [Int] = []
        reactor.autorun { _ in seen.append(last.value) }
        inputs.a = 1
        inputs.a = 2
        #expect(seen == [4_999, 5_000, 5_001])
    }

    @Test func chainCutOffInTheMiddle() {
        let reactor = Reactor()
        let inputs = Inputs()
        var downstreamRuns = 0
        let first = reactor.computed { inputs.a + 1 }
        let clamped = reactor.computed { min(first.value, 3) }
        let downstream = reactor.computed { downstreamRuns += 1; return clamped.value * 10 }
        var effectRuns = 0
        reactor.autorun { _ in _ = downstream.value; effectRuns += 1 }
        inputs.a = 5   // clamped: 1 -> 3
        inputs.a = 6   // clamped stays 3
        inputs.a = 7
        #expect(downstream.value == 30)
        #expect(downstreamRuns == 2)
        #expect(effectRuns == 2)
    }

    @Test func computedReadInsideComputedAndAutorunAfterStop() {
        let reactor = Reactor()
        let inputs = Inputs()
        let doubled = reactor.computed { inputs.a * 2 }
        var seen: [Int] = []
        let effect = reactor.autorun { _ in seen.append(doubled.value) }
        inputs.a = 1
        effect.stop()
        inputs.a = 2
        #expect(seen == [0, 2])
        #expect(doubled.value == 4)
    }

    @Test func autorunWritingASourceBeforeReadingTheComputedSeesFreshValues() {
        let reactor = Reactor()
        let inputs = Inputs()
        let doubled = reactor.computed { inputs.a * 2 }
        var seen: [Int] = []
        reactor.autorun { _ in
            if inputs.b == 1 { inputs.a = 5 }
            seen.append(doubled.value)
        }
        inputs.b = 1
        #expect(seen.last == 10)
        #expect(doubled.value == 10)
    }

    @Test func computedReadNonreactivelyIsNotADependency() {
        let reactor = Reactor()
        let inputs = Inputs()
        let doubled = reactor.computed { inputs.a * 2 }
        var runs = 0
        reactor.autorun { _ in
            runs += 1
            _ = reactor.nonreactive { doubled.value }
        }
        inputs.a = 1
        #expect(runs == 1)
        #expect(doubled.value == 2)
    }

    @Test func conditionalSourcesAreDroppedWhenNotRead() {
        let reactor = Reactor()
        let inputs = Inputs()
        var runs = 0
        let chosen = reactor.computed { runs += 1; return inputs.flag ? inputs.a : inputs.b }
        var seen: [Int] = []
        reactor.autorun { _ in seen.append(chosen.value) }
        #expect(inputs.$b.projectedDependency.hasDependents)
        #expect(!inputs.$a.projectedDependency.hasDependents)
        inputs.flag = true
        #expect(inputs.$a.projectedDependency.hasDependents)
        #expect(!inputs.$b.projectedDependency.hasDependents)
        let before = runs
        inputs.b = 7  // no longer a source
        #expect(runs == before)
        inputs.a = 3
        #expect(seen == [0, 3])  // switching to `a` (also 0) changed nothing
    }

    /// An autorun's check of its computed sources stops at the first that
    /// changed: the rerun decides what it reads next, so a source it no
    /// longer reads is never recomputed.
    @Test func anAutorunsCheckStopsAtTheFirstComputedThatChanged() {
        let reactor = Reactor()
        let inputs = Inputs()
        var runs = 0
        let gate = reactor.computed { inputs.a > 0 }
        let expensive = reactor.computed { runs += 1; return inputs.a * 10 }
        var seen: [Int] = []
        let effect = reactor.autorun { _ in
            if gate.value { return }
            seen.append(expensive.value)
        }
        #expect(seen == [0] && runs == 1)
        inputs.a = 1  // both may have changed; the gate, checked first, did
        #expect(seen == [0])
        #expect(runs == 1)
        effect.stop()
    }

    @Test func twoReadersOneStops() {
        let reactor = Reactor()
        let inputs = Inputs()
        let doubled = reactor.computed { inputs.a * 2 }
        var first: [Int] = [], second: [Int] = []
        let reader = reactor.autorun { _ in first.append(doubled.value) }
        reactor.autorun { _ in second.append(doubled.value) }
        inputs.a = 1
        reader.stop()
        inputs.a = 2
        #expect(first == [0, 2])
        #expect(second == [0, 2, 4])
    }

    @Test func batchChangingAComputedsSourcesRerunsReadersOnce() {
        let reactor = Reactor()
        let inputs = Inputs()
        let sum = reactor.computed { inputs.a + inputs.b }
        let scaled = reactor.computed { sum.value * 10 }
        var seen: [[Int]] = []
        reactor.autorun { _ in seen.append([inputs.a, sum.value, scaled.value]) }
        reactor.batch {
            inputs.a = 1
            inputs.b = 2
        }
        reactor.batch {
            inputs.a = 2
            inputs.b = 1  // same sum: the cut-off stops at `sum`, but the reader reads `a` itself
        }
        #expect(seen == [[0, 0, 0], [1, 3, 30], [2, 3, 30]])
    }

    @Test func deallocationReleasesItsSources() {
        let reactor = Reactor(scheduler: .manual)
        let source = Dependency("source")
        weak var released: Computed<Int>?
        do {
            let computed = reactor.computed { source.depend(); return 1 }
            released = computed
            #expect(computed.value == 1)
            #expect(source.hasDependents)
        }
        #expect(released == nil)
        #expect(!source.hasDependents)
    }

    @Test func readersOfADeallocatedComputedLoseTheEdge() {
        let reactor = Reactor(scheduler: .manual)
        let source = Dependency("source")
        var runs = 0
        var computed: Computed<Int>? = reactor.computed { source.depend(); return 1 }
        let reader = reactor.autorun { _ in runs += 1; _ = computed?.value }
        computed = nil  // the reader's body still holds no strong reference beyond the optional
        #expect(!source.hasDependents)
        source.changed()
        reactor.flush()
        #expect(runs == 1)
        reader.stop()
    }

    @Test func computedReleasedDuringItsOwnRefreshByAReader() {
        // The reader's walk over its dependencies refreshes the computed, whose
        // body drops the last reference to it: the link being walked is
        // recycled under the walk, which must notice and stop.
        let reactor = Reactor(scheduler: .manual)
        let inputs = Inputs()
        var holder: Computed<Int>?
        var otherSource: Dependency? = Dependency("other")
        holder = reactor.computed { if inputs.a == 1 { holder = nil }; return 0 }
        var runs = 0
        reactor.autorun { _ in
            runs += 1
            _ = holder?.value
            otherSource?.depend()
            _ = inputs.b
        }
        inputs.b = 1
        otherSource = nil  // a stale link to it now sits in the reader's free list
        reactor.flush()
        inputs.a = 1
        reactor.flush()
        #expect(holder == nil)
        inputs.b = 2
        reactor.flush()
        #expect(runs == 3)
    }

    @Test func readerStillSeesALaterChangeWhenASourceGoesAwayDuringItsCheck() {
        // The reader checks `first` (unchanged), whose body drops the last
        // reference to a dependency the reader also read; the check must go
        // on to `second`, which did change.
        let reactor = Reactor(scheduler: .manual)
        let inputs = Inputs()
        var dropped: Dependency? = Dependency("dropped")
        let first = reactor.computed("first") { () -> Int in
            if inputs.a == 1 { dropped = nil }
            return 0
        }
        let second = reactor.computed("second") { inputs.a * 2 }
        var seen: [Int] = []
        reactor.autorun { _ in
            _ = first.value
            dropped?.depend()
            seen.append(second.value)
        }
        inputs.a = 1
        reactor.flush()
        #expect(dropped == nil)
        #expect(seen == [0, 2])
    }

    @Test func cycleThroughAnotherComputedIsReportedWithNames() {
        let reactor = Reactor(scheduler: .manual)
        let log = IssueLog(reactor)
        let inputs = Inputs()
        var b: Computed<Int>?
        let a = reactor.computed("A") { inputs.flag ? b!.value + 1 : 0 }
        b = reactor.computed("B") { a.value + 10 }
        #expect(a.value == 0)
        #expect(log.issues.isEmpty)

        inputs.flag = true
        // A reads B reads A: the inner read of A returns A's previous value, 0.
        #expect(a.value == 11)
        #expect(log.kinds == ["cycle"])
        if case let .cycle(names) = log.issues.first {
            #expect(names == ["A", "B", "A"])
        }
        // The cycle has no fixed point: each read goes round it once more and reports it.
        #expect(b!.value == 21)
        #expect(log.kinds == ["cycle", "cycle"])

        // Breaking the cycle settles both values, with nothing more to report.
        inputs.flag = false
        #expect(a.value == 0)
        #expect(b!.value == 10)
        #expect(a.value == 0)
        #expect(log.kinds == ["cycle", "cycle"])
        b = nil
    }

    @Test func cycleDuringTheFirstComputationReportsThenTraps() async throws {
        // There is no previous value to return: the read traps, after the
        // default issue handler has printed the cycle's names.
        let result = try await #require(
            processExitsWith: .failure, observing: [\.standardErrorContent]
        ) {
            let reactor = Reactor(scheduler: .manual)
            var holder: Computed<Int>?
            let looping = reactor.computed("looping") { holder!.value + 1 }
            holder = looping
            _ = looping.value
        }
        let standardError = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(standardError.contains("computed values form a cycle: looping -> looping"))
    }

    @Test func cycleBetweenSettledComputedsIsReportedWhenChecked() {
        // A and B read each other and settle (B = A, A = max(B, C)); then C
        // changes, which leaves both A and B "maybe stale". Checking A checks
        // B, which checks A: a cycle to report, not an endless recursion.
        let reactor = Reactor(scheduler: .manual)
        let log = IssueLog(reactor)
        let inputs = Inputs()
        let c = reactor.computed("C") { inputs.a }
        var b: Computed<Int>?
        let a = reactor.computed("A") { inputs.flag ? max(b!.value, c.value) : c.value }
        b = reactor.computed("B") { a.value }
        #expect(a.value == 0)
        inputs.flag = true
        #expect(a.value == 0)
        #expect(log.kinds == ["cycle"])
        inputs.a = 1
        #expect(a.value == 1)
        #expect(log.kinds.count >= 2)
        #expect(log.kinds.allSatisfy { $0 == "cycle" })
        if case let .cycle(names) = log.issues.last {
            #expect(names.first == names.last)
            #expect(Set(names) == ["A", "B"])
        }
        b = nil
    }

    @Test func computedReadingItselfIsReported() {
        let reactor = Reactor(scheduler: .manual)
        let log = IssueLog(reactor)
        let inputs = Inputs()
        var selfReference: Computed<Int>?
        let counter = reactor.computed("counter") { inputs.flag ? selfReference!.value + 1 : 0 }
        selfReference = counter
        #expect(counter.value == 0)
        inputs.flag = true
        #expect(counter.value == 1)
        #expect(log.kinds == ["cycle"])
        if case let .cycle(names) = log.issues.first {
            #expect(names == ["counter", "counter"])
        }
        // It does not depend on itself: a read without a change reruns nothing.
        #expect(counter.value == 1)
        #expect(log.issues.count == 1)
        selfReference = nil
    }

    @Test func autorunNestedInAComputedStopsWhenItRecomputes() {
        let reactor = Reactor(scheduler: .manual)
        let inputs = Inputs()
        var inner: [Computation] = []
        let computed = reactor.computed {
            inner.append(reactor.autorun { _ in })
            return inputs.a
        }
        #expect(computed.value == 0)
        #expect(inner.count == 1)
        inputs.a = 1
        #expect(inner[0].isStopped)
        #expect(computed.value == 1)
        #expect(inner.count == 2)
        #expect(!inner[1].isStopped)
    }

    @Test func invalidatingAComputedsComputationRecomputesIt() {
        let reactor = Reactor()
        var runs = 0
        var node: Computation?
        let computed = reactor.computed { runs += 1; node = reactor.currentComputation; return runs }
        var seen: [Int] = []
        reactor.autorun { _ in seen.append(computed.value) }
        #expect(seen == [1])
        node?.invalidate()
        #expect(computed.value == 2)
        #expect(seen == [1, 2])
    }
}
