import Testing
@testable import ReactorCore

/// The reactive inputs of the shortcut tests.
private final class Source {
    @Reactive var value = 0
}

/// A value with no `Equatable` conformance: every recomputation but the first is a change.
private struct Unequatable { let number: Int }

/// The cases the engine's shortcuts stand on: where a walk skips a test because
/// an invariant answers it (a computed that changed, or is not stopped, has its
/// output; one subscriber is one by count; a pass's first run is within the
/// runaway limit; a clean, idle computed has a value; a first value is no
/// change), each case the invariant covers, read from what users see and from
/// the engine's flags.
@Suite struct EngineShortcutTests {
    @Test func aRunawayLimitOfOneAllowsOneRunAPass() {
        let reactor = Reactor(scheduler: .manual)
        let log = IssueLog(reactor)
        reactor.runawayLimit = 1
        var runs = 0
        let computation = reactor.autorun { c in runs += 1; c.invalidate() }
        reactor.flush()
        // The first run, then one in the flush's pass; the second of the pass is a runaway.
        #expect(runs == 2)
        #expect(computation.isStopped)
        guard case let .runaway(_, reruns) = log.issues.first else {
            Issue.record("expected a runaway, got \(log.kinds)")
            return
        }
        #expect(reruns == 1)
    }

    @Test func aRunawayLimitOfOneLetsAnAutorunRunOnceInEachFlush() {
        let reactor = Reactor(scheduler: .manual)
        let log = IssueLog(reactor)
        reactor.runawayLimit = 1
        let source = Source()
        var runs = 0
        reactor.autorun { _ in _ = source.value; runs += 1 }
        for value in 1...3 {
            source.value = value
            reactor.flush()
        }
        #expect(runs == 4)
        #expect(log.kinds.isEmpty)
    }

    @Test func aChangeReadByACheckingComputedAndAnotherReaderInvalidatesBoth() {
        let reactor = Reactor(scheduler: .manual)
        let source = Source()
        let shared = reactor.computed { source.value * 2 }
        let checker = reactor.computed { shared.value + 1 }
        let other = reactor.computed { shared.value + 2 }
        #expect(checker.value == 1)
        #expect(other.value == 2)
        source.value = 5
        #expect(checker.node.derivedState == .check)
        #expect(other.node.derivedState == .check)
        // The checker's refresh recomputes `shared`, which two computeds read:
        // both are told of the change, not only the one checking.
        #expect(checker.value == 11)
        #expect(other.node.derivedState == .dirty)
        #expect(other.value == 12)
        #expect(shared.output.subscribers.count == 2)
    }

    @Test func aChangeReadOnlyByTheCheckingComputedMarksItDirty() {
        let reactor = Reactor(scheduler: .manual)
        let source = Source()
        let below = reactor.computed { source.value * 2 }
        let above = reactor.computed { below.value + 1 }
        #expect(above.value == 1)
        source.value = 5
        #expect(below.output.subscribers.count == 1)
        #expect(above.value == 11)
        #expect(above.node.derivedState == .clean)
        #expect(below.node.derivedState == .clean)
    }

    @Test func anUnequatableChainPropagatesEveryRecomputationButTheFirst() {
        let reactor = Reactor(scheduler: .manual)
        let source = Source()
        var belowRuns = 0, aboveRuns = 0, effectRuns = 0
        let below = reactor.computed { belowRuns += 1; return Unequatable(number: source.value % 2) }
        let above = reactor.computed { aboveRuns += 1; return Unequatable(number: below.value.number) }
        reactor.autorun { _ in _ = above.value; effectRuns += 1 }
        #expect((belowRuns, aboveRuns, effectRuns) == (1, 1, 1))
        reactor.flush()
        #expect((belowRuns, aboveRuns, effectRuns) == (1, 1, 1))
        source.value = 2  // the same parity: a new value all the same
        reactor.flush()
        #expect((belowRuns, aboveRuns, effectRuns) == (2, 2, 2))
    }

    @Test func aComputedsComputationThatOutlivesItIgnoresInvalidation() {
        let reactor = Reactor(scheduler: .manual)
        let source = Source()
        var kept: Computation?
        var computed: Computed<Int>? = reactor.computed {
            kept = reactor.currentComputation
            return source.value + 1
        }
        var effectRuns = 0
        let effect = reactor.autorun { _ in _ = computed?.value; effectRuns += 1 }
        #expect(effectRuns == 1)
        effect.stop()
        computed = nil
        guard let node = kept else {
            Issue.record("the computed's body had no current computation")
            return
        }
        #expect(node.isStopped)
        // Stopped with its `Computed` gone: an invalidation or a change reaches nothing.
        node.invalidate()
        source.value = 1
        reactor.flush()
        #expect(node.isStopped)
        #expect(effectRuns == 1)
    }

    @Test func aComputedReadOutsideAnyComputationAfterAChangeIsFresh() {
        let reactor = Reactor(scheduler: .manual)
        let source = Source()
        let computed = reactor.computed { source.value + 1 }
        #expect(computed.value == 1)
        #expect(computed.node.derivedState == .clean)
        source.value = 41
        #expect(computed.node.derivedState == .dirty)
        #expect(computed.value == 42)
        reactor.batch {
            source.value = 1
            #expect(computed.value == 2)
        }
    }
}
