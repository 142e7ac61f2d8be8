import Testing
import ReactorCore

@Suite struct ComputationTests {
    @Test func dependReturnsTrueOnlyForANewDependent() {
        let reactor = Reactor(scheduler: .manual)
        let dependency = Dependency()
        var results: [Bool] = []
        let computation = reactor.autorun { _ in
            results.append(dependency.depend())
            results.append(dependency.depend())
        }
        #expect(results == [true, false])
        #expect(dependency.depend() == false)  // no current computation
        #expect(dependency.depend(computation) == false)  // already a dependent

        let other = Dependency()
        #expect(other.depend(computation))
        #expect(!other.depend(computation))
        #expect(other.hasDependents)
        other.changed()
        #expect(computation.isInvalidated)
        #expect(!other.hasDependents)
        #expect(!dependency.hasDependents)
    }

    @Test func dependOnAnInvalidatedComputationIsNotKept() {
        // Tracker adds it, and its onInvalidate removes it at once.
        let reactor = Reactor(scheduler: .manual)
        let computation = reactor.autorun { _ in }
        computation.invalidate()
        let dependency = Dependency()
        #expect(dependency.depend(computation))
        #expect(!dependency.hasDependents)
    }

    @Test func nestedComputationStopsWhenTheOuterIsInvalidated() {
        let reactor = Reactor(scheduler: .manual)
        let outerSource = Dependency(), innerSource = Dependency()
        var inner: [Computation] = []
        var innerRuns = 0
        let outer = reactor.autorun { _ in
            outerSource.depend()
            inner.append(reactor.autorun { _ in innerSource.depend(); innerRuns += 1 })
        }
        #expect(inner.count == 1)
        innerSource.changed()
        reactor.flush()
        #expect(innerRuns == 2)

        outerSource.changed()
        #expect(inner[0].isStopped)  // at once, before the flush
        reactor.flush()
        #expect(inner.count == 2)
        #expect(!inner[1].isStopped)
        #expect(innerRuns == 3)

        outer.stop()
        #expect(inner[1].isStopped)
        #expect(!innerSource.hasDependents)
    }

    @Test func nestedComputationCreatedInsideNonreactiveIsNotAChild() {
        let reactor = Reactor(scheduler: .manual)
        var child: Computation?
        let outer = reactor.autorun { _ in
            if child == nil { child = reactor.nonreactive { reactor.autorun { _ in } } }
        }
        outer.invalidate()
        #expect(child?.isStopped == false)
    }

    @Test func onInvalidateOnAnInvalidatedComputationRunsAtOnce() {
        let reactor = Reactor(scheduler: .manual)
        let computation = reactor.autorun { _ in }
        computation.invalidate()
        var ran = false
        computation.onInvalidate { _ in ran = true }
        #expect(ran)

        var stopRan = false
        computation.stop()
        computation.onStop { _ in stopRan = true }
        #expect(stopRan)
    }

    @Test func onInvalidateRunsBeforeOnStopAndOnce() {
        let reactor = Reactor(scheduler: .manual)
        var order: [String] = []
        let computation = reactor.autorun { _ in }
        computation.onStop { _ in order.append("stop") }
        computation.onInvalidate { _ in order.append("invalidate") }
        computation.stop()
        computation.stop()
        computation.invalidate()
        #expect(order == ["invalidate", "stop"])
    }

    @Test func callbacksRunNonreactively() {
        let reactor = Reactor(scheduler: .manual)
        let trigger = Dependency("trigger")
        let readInInvalidate = Dependency("onInvalidate")
        let readInStop = Dependency("onStop")
        let readInAfterFlush = Dependency("afterFlush")
        var activeInCallbacks: [Bool] = []
        let computation = reactor.autorun { c in
            trigger.depend()
            c.onInvalidate { _ in
                activeInCallbacks.append(reactor.isActive)
                readInInvalidate.depend()
            }
            c.onStop { _ in
                activeInCallbacks.append(reactor.isActive)
                readInStop.depend()
            }
            reactor.afterFlush {
                activeInCallbacks.append(reactor.isActive)
                readInAfterFlush.depend()
            }
        }
        trigger.changed()
        reactor.flush()
        computation.stop()
        // onInvalidate twice (change, stop), onStop twice (both runs' registrations), afterFlush twice.
        #expect(activeInCallbacks == [Bool](repeating: false, count: 6))
        #expect(!readInInvalidate.hasDependents)
        #expect(!readInStop.hasDependents)
        #expect(!readInAfterFlush.hasDependents)
    }

    @Test func currentComputationAndIsActive() {
        let reactor = Reactor(scheduler: .manual)
        let other = Reactor(scheduler: .manual)
        #expect(!reactor.isActive)
        var seen: [Bool] = []
        reactor.autorun { c in
            seen.append(reactor.currentComputation === c)
            seen.append(reactor.isActive)
            // Another runtime has no computation running.
            seen.append(other.isActive)
        }
        #expect(seen == [true, true, false])
        #expect(reactor.currentComputation == nil)
    }

    @Test func nameIsGivenOrDerivedFromTheCallSite() {
        let reactor = Reactor(scheduler: .manual)
        let named = reactor.autorun("label") { _ in }
        let unnamed = reactor.autorun { _ in }
        #expect(named.name == "label")
        #expect(unnamed.name?.hasPrefix("ReactorCoreTests/ComputationTests.swift:") == true)
        #expect(named.id != unnamed.id)
        #expect(named.id != 0)
    }

    @Test func stoppedComputationReleasesItsBody() {
        final class Token {}
        let reactor = Reactor(scheduler: .manual)
        weak var weakToken: Token?
        let computation: Computation
        do {
            let token = Token()
            weakToken = token
            computation = reactor.autorun { _ in _ = token }
        }
        #expect(weakToken != nil)
        computation.stop()
        #expect(weakToken == nil)
    }

    @Test func computationWithoutDependenciesOrReferencesIsReleased() {
        let reactor = Reactor(scheduler: .manual)
        let dependency = Dependency()
        weak var weakComputation: Computation?
        do {
            let computation = reactor.autorun { _ in dependency.depend() }
            weakComputation = computation
        }
        // Its dependency keeps it alive, as in Tracker.
        #expect(weakComputation != nil)
        weakComputation?.stop()
        #expect(weakComputation == nil)
    }

    @Test func flushOfAComputationThatIsNotInvalidatedDoesNothing() {
        let reactor = Reactor(scheduler: .manual)
        var runs = 0
        let computation = reactor.autorun { _ in runs += 1 }
        computation.flush()
        #expect(runs == 1)
        computation.run()
        #expect(runs == 2)
        computation.stop()
        computation.run()
        #expect(runs == 2)
    }
}
