import Testing
import ReactorCore

/// A rerun keeps the links of the dependencies it reads again instead of
/// dropping and re-adding them; these check that Tracker's semantics (an
/// invalidated computation has no dependencies, a rerun collects them afresh)
/// still hold whatever the order of the reads.
@Suite struct LinkReuseTests {
    @Test func invalidatedComputationHasNoDependentsUntilItReruns() {
        let reactor = Reactor(scheduler: .manual)
        let a = Dependency("a"), b = Dependency("b")
        let computation = reactor.autorun { _ in a.depend(); b.depend() }
        #expect(a.hasDependents && b.hasDependents)
        a.changed()
        #expect(!a.hasDependents)
        #expect(!b.hasDependents)
        reactor.flush()
        #expect(a.hasDependents && b.hasDependents)
        computation.stop()
        #expect(!a.hasDependents && !b.hasDependents)
    }

    @Test func readsInAnotherOrderKeepEveryEdge() {
        let reactor = Reactor(scheduler: .manual)
        let deps = (0..<4).map { Dependency("d\($0)") }
        var order = [0, 1, 2, 3]
        var fresh: [Bool] = []
        var runs = 0
        let computation = reactor.autorun { _ in
            runs += 1
            for index in order {
                fresh.append(deps[index].depend())
                fresh.append(deps[index].depend())
            }
        }
        for next in [[3, 2, 1, 0], [1, 3, 0, 2], [2, 0], [0, 1, 2, 3]] {
            order = next
            fresh = []
            deps[0].changed()
            reactor.flush()
            // New for this run on first read, not on the second.
            #expect(fresh == order.flatMap { _ in [true, false] })
            for (index, dependency) in deps.enumerated() {
                #expect(dependency.hasDependents == order.contains(index))
            }
        }
        // Every dependency read last still invalidates; the dropped ones did not stay.
        #expect(runs == 5)
        for dependency in deps {
            dependency.changed()
            reactor.flush()
        }
        #expect(runs == 9)
        computation.stop()
    }

    @Test func droppedDependencyNoLongerInvalidates() {
        let reactor = Reactor(scheduler: .manual)
        let a = Dependency("a"), b = Dependency("b")
        var readB = true
        var runs = 0
        reactor.autorun { _ in
            runs += 1
            a.depend()
            if readB { b.depend() }
        }
        readB = false
        a.changed()
        reactor.flush()
        #expect(runs == 2)
        #expect(!b.hasDependents)
        b.changed()
        reactor.flush()
        #expect(runs == 2)
    }

    @Test func writeDuringARunToADependencyNotYetReadAgainDoesNotInvalidate() {
        // Tracker: the rerun starts with no dependencies, so a write to one the
        // last run read, before this run reads it, invalidates nothing.
        let reactor = Reactor(scheduler: .manual)
        let trigger = Dependency("trigger"), written = Dependency("written")
        var runs = 0
        var seenDependents: [Bool] = []
        let computation = reactor.autorun { c in
            runs += 1
            trigger.depend()
            if !c.isFirstRun {
                seenDependents.append(written.hasDependents)
                written.changed()
            }
            written.depend()
        }
        trigger.changed()
        reactor.flush()
        #expect(runs == 2)
        #expect(seenDependents == [false])
        #expect(!computation.isInvalidated)
        computation.stop()
    }

    @Test func invalidatedDuringItsRunKeepsNothingItReadsAfterwards() {
        let reactor = Reactor(scheduler: .manual)
        let before = Dependency("before"), after = Dependency("after")
        var results: [Bool] = []
        var invalidateInRun = false
        var runs = 0
        let computation = reactor.autorun { c in
            runs += 1
            before.depend()
            if invalidateInRun {
                invalidateInRun = false
                c.invalidate()
                results.append(after.depend())
                results.append(after.hasDependents)
            } else {
                after.depend()
            }
        }
        invalidateInRun = true
        before.changed()
        reactor.flush()  // reruns it at once, as Tracker's flush does
        // Tracker reports it as a new dependent but does not keep it.
        #expect(results == [true, false])
        #expect(runs == 3)
        #expect(before.hasDependents && after.hasDependents)
        computation.stop()
    }

    @Test func dependencyGoingAwayWhileItsReaderIsInvalidated() {
        let reactor = Reactor(scheduler: .manual)
        let kept = Dependency("kept")
        var dropped: Dependency? = Dependency("dropped")
        var runs = 0
        let computation = reactor.autorun { _ in
            runs += 1
            dropped?.depend()
            kept.depend()
        }
        kept.changed()
        dropped = nil  // its stale link goes before the rerun
        reactor.flush()
        #expect(runs == 2)
        kept.changed()
        reactor.flush()
        #expect(runs == 3)
        computation.stop()
        #expect(!kept.hasDependents)
    }

    @Test func computedKeepsItsEdgesAcrossRecomputations() {
        let reactor = Reactor(scheduler: .manual)
        let inputs = (0..<3).map { _ in Dependency() }
        var useFirst = true
        var runs = 0
        let computed = reactor.computed { () -> Int in
            runs += 1
            if useFirst { inputs[0].depend() }
            inputs[1].depend()
            inputs[2].depend()
            return runs
        }
        let reader = reactor.autorun { _ in _ = computed.value }
        useFirst = false
        inputs[1].changed()
        reactor.flush()
        #expect(runs == 2)
        #expect(!inputs[0].hasDependents)
        inputs[0].changed()
        reactor.flush()
        #expect(runs == 2)
        inputs[2].changed()
        reactor.flush()
        #expect(runs == 3)
        reader.stop()
    }
}
