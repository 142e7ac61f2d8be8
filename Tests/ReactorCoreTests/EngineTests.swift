import Testing
import ReactorCore

/// A reactive integer for the engine tests.
private final class Source {
    @Reactive var value = 0
}

/// What the propagation engine guarantees beyond Tracker's semantics: the
/// depth of a graph costs no stack, and a body may stop its own computation.
@Suite struct EngineTests {
    /// A chain far deeper than a recursive refresh could walk on a thread's
    /// stack: each computed is first computed as it is made (its source is
    /// clean then), so only the refresh after a write walks the whole chain.
    @Test func aVeryDeepChainRefreshesWithoutRecursion() {
        let reactor = Reactor()
        let source = Source()
        let length = 100_000
        var chain = [reactor.computed { source.value + 1 }]
        chain.reserveCapacity(length)
        for _ in 1..<length {
            let previous = chain[chain.count - 1]
            let next = reactor.computed { previous.value + 1 }
            _ = next.value
            chain.append(next)
        }
        var seen: [Int] = []
        do {
            let last = chain[length - 1]
            let effect = reactor.autorun { _ in seen.append(last.value) }
            source.value = 1
            source.value = 2
            effect.stop()
        }
        #expect(seen == [length, length + 1, length + 2])
        // Released from the end, with no other reference left: each computed's
        // body holds the one before it, which the array still holds, so each
        // release frees one computed (releasing the last of a chain held only
        // by its successors would free them all recursively).
        while !chain.isEmpty { chain.removeLast() }
    }

    /// A body that stops its own computation goes on running what it
    /// captured; the capture is released once the operation ends.
    @Test func aBodyThatStopsItsComputationKeepsItsCapturesUntilItReturns() {
        final class Token { var uses = 0 }
        let reactor = Reactor(scheduler: .manual)
        let source = Source()
        weak var weakToken: Token?
        var usesAfterStop = 0
        let computation: Computation
        do {
            let token = Token()
            weakToken = token
            computation = reactor.autorun { computation in
                if source.value > 0 {
                    computation.stop()
                    token.uses += 1
                    usesAfterStop = token.uses
                }
            }
        }
        source.value = 1
        #expect(weakToken != nil)
        reactor.flush()
        #expect(computation.isStopped)
        #expect(usesAfterStop == 1)
        #expect(weakToken == nil)
    }

    /// A queued computation whose last dependency goes away before the flush
    /// is held by its entry, reruns, and is released after the flush.
    @Test func aQueuedComputationThatLosesItsLastDependencyLivesUntilTheFlush() {
        let reactor = Reactor(scheduler: .manual)
        weak var weakComputation: Computation?
        var dependency: Dependency? = Dependency()
        var runs = 0
        do {
            let read = dependency!
            let computation = reactor.autorun { [weak read] _ in
                runs += 1
                if runs == 1 { read?.depend() }
            }
            weakComputation = computation
        }
        dependency!.changed()
        // Its only dependency goes: the pending entry is what holds it now.
        dependency = nil
        #expect(weakComputation != nil)
        reactor.flush()
        #expect(runs == 2)
        #expect(weakComputation == nil)
    }

    /// A computation whose rerun invalidates it reruns again from the same
    /// entry; after the flush its dependency alone holds it, and it goes with it.
    @Test func aComputationRerunTwiceFromOneEntryIsHeldByItsDependencyAfterTheFlush() {
        let reactor = Reactor(scheduler: .manual)
        weak var weakComputation: Computation?
        var dependency: Dependency? = Dependency()
        var runs = 0
        do {
            let read = dependency!
            let computation = reactor.autorun { [weak read] _ in
                runs += 1
                read?.depend()
                if runs == 2 { read?.changed() }
            }
            weakComputation = computation
        }
        dependency!.changed()
        reactor.flush()
        #expect(runs == 3)
        #expect(weakComputation != nil)
        dependency = nil
        #expect(weakComputation == nil)
    }

    /// A read repeated in a row is answered without a call (the link just
    /// kept is to the same dependency): it reports no new dependent, in the
    /// first run and in a rerun alike, and adds no second edge.
    @Test func aReadRepeatedInARowAddsNoEdge() {
        let reactor = Reactor(scheduler: .manual)
        let first = Dependency()
        let second = Dependency()
        var results: [[Bool]] = []
        var runs = 0
        reactor.autorun { _ in
            runs += 1
            results.append([first.depend(), first.depend(), second.depend(), second.depend(), first.depend()])
        }
        first.changed()
        reactor.flush()
        second.changed()
        reactor.flush()
        #expect(results == Array(repeating: [true, false, true, false, false], count: 3))
        #expect(runs == 3)
    }

    /// The reads of computeds a body makes in place (clean, in the last
    /// run's order, repeated in a row) and out of it all keep their edges;
    /// a read with no current computation (`nonreactive`) keeps none.
    @Test func readsOfComputedsInAndOutOfOrderKeepTheirEdges() {
        let reactor = Reactor()
        let source = Source()
        let other = Source()
        let third = Source()
        let double = reactor.computed { source.value * 2 }
        let negated = reactor.computed { -other.value }
        let untracked = reactor.computed { third.value + 100 }
        var seen: [Int] = []
        reactor.autorun { _ in
            // Even values read `double` then `negated`, odd ones the reverse:
            // every rerun reads out of the last run's order.
            let sum = source.value % 2 == 0
                ? double.value + double.value + negated.value
                : negated.value + double.value + double.value
            seen.append(sum + reactor.nonreactive { untracked.value })
        }
        source.value = 1
        other.value = 5
        source.value = 2
        other.value = 7
        #expect(seen == [100, 104, 99, 103, 101])
        // `untracked` was read with no current computation: a change that
        // reaches only it reruns nothing; the next rerun reads its new value.
        third.value = 1
        #expect(seen.count == 5)
        source.value = 4
        #expect(seen == [100, 104, 99, 103, 101, 110])
    }
}
