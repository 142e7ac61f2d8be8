import Testing
@testable import ReactorCore

/// A reactive integer for the engine state tests.
private final class Counter {
    @Reactive var value = 0
}

/// The engine's own records, read directly: the links a rerun keeps, reuses
/// and purges, the flags a write and a refresh leave on each node, and the
/// pending queue's hold on the computations it queues. (What users see of the
/// same behaviour is in `LinkReuseTests`, `EngineTests` and the Tracker suite.)
@Suite struct EngineStateTests {
    /// The links of `computation`'s dependency list, in reading order.
    private func links(of computation: Computation) -> [LinkPointer] {
        var result: [LinkPointer] = []
        var cursor = computation.dependencies.head
        while let link = cursor {
            result.append(link)
            cursor = link.pointee.nextDependency
        }
        return result
    }

    /// The spare links `computation` keeps for reuse.
    private func spares(of computation: Computation) -> [LinkPointer] {
        var result: [LinkPointer] = []
        var cursor = computation.dependencies.spare
        while let link = cursor {
            result.append(link)
            cursor = link.pointee.nextDependency
        }
        return result
    }

    @Test func aRerunReadingTheSameSourcesKeepsItsLinksInPlace() {
        let reactor = Reactor(scheduler: .manual)
        let a = Dependency("a"), b = Dependency("b")
        let computation = reactor.autorun { _ in a.depend(); b.depend() }
        let before = links(of: computation)
        #expect(before.count == 2)
        for _ in 0..<3 {
            a.changed()
            reactor.flush()
        }
        #expect(links(of: computation) == before)
        #expect(computation.dependencies.count == 2)
        #expect(spares(of: computation).isEmpty)
        #expect(a.subscribers.count == 1 && b.subscribers.count == 1)
        #expect(before.allSatisfy { $0.pointee.isLive })
        computation.stop()
    }

    @Test func linksNotReadAgainArePurgedAndTheirRecordsReused() {
        let reactor = Reactor(scheduler: .manual)
        let a = Dependency("a"), b = Dependency("b"), c = Dependency("c")
        var second: Dependency? = b
        let computation = reactor.autorun { _ in
            a.depend()
            second?.depend()
        }
        let linkToB = links(of: computation)[1]
        second = nil
        a.changed()
        reactor.flush()
        // Purged: out of both lists, kept as a spare.
        #expect(links(of: computation).count == 1)
        #expect(computation.dependencies.count == 1)
        #expect(b.subscribers.count == 0)
        #expect(spares(of: computation) == [linkToB])
        // The next new edge takes the spare record rather than a new one.
        second = c
        a.changed()
        reactor.flush()
        #expect(links(of: computation) == [links(of: computation)[0], linkToB])
        #expect(linkToB.pointee.dependency.refers(to: c))
        #expect(spares(of: computation).isEmpty)
        #expect(c.subscribers.count == 1 && b.subscribers.count == 0)
        computation.stop()
        #expect(links(of: computation).isEmpty)
        #expect(a.subscribers.count == 0 && c.subscribers.count == 0)
    }

    @Test func aWriteMarksItsReadersDirtyAndTheirReadersPossiblyStale() {
        let reactor = Reactor(scheduler: .endOfBatch)
        let source = Counter()
        let first = reactor.computed { source.value + 1 }
        let second = reactor.computed { first.value * 2 }
        var seen: [Int] = []
        let effect = reactor.autorun { _ in seen.append(second.value) }
        for node in [first.node, second.node] {
            #expect(node.derivedState == .clean && node.activity == .idle)
        }
        reactor.batch {
            source.value = 5
            #expect(first.node.derivedState == .dirty)
            #expect(second.node.derivedState == .check)
            #expect(effect.checkPending && effect.queued && !effect.invalidated)
            #expect(reactor.pending.count == 1)
        }
        #expect(seen == [2, 12])
        for node in [first.node, second.node] {
            #expect(node.derivedState == .clean && node.activity == .idle)
        }
        #expect(!effect.checkPending && !effect.queued && effect.pendingEntries == 0)
        #expect(reactor.pending.count == 0)
        effect.stop()
    }

    /// The push of "maybe stale" tells a computed reader from an autorun by
    /// the link alone: a computed's links hold its output, an autorun's nil.
    @Test func aLinkHoldsItsReadersOutputForAComputedAndNothingForAnAutorun() {
        let reactor = Reactor(scheduler: .endOfBatch)
        let source = Counter()
        let first = reactor.computed { source.value + 1 }
        let second = reactor.computed { first.value * 2 }
        let effect = reactor.autorun { _ in _ = first.value; _ = second.value }
        let secondLinks = links(of: second.node)
        #expect(secondLinks.count == 1)
        #expect(secondLinks.allSatisfy { $0.pointee.readerOutput?.refers(to: second.output) == true })
        let effectLinks = links(of: effect)
        #expect(effectLinks.count == 2)
        #expect(effectLinks.allSatisfy { $0.pointee.readerOutput == nil })
        reactor.batch {
            source.value = 1
            #expect(second.node.derivedState == .check)
            #expect(effect.checkPending && !effect.invalidated)
            // Reached twice (through `first` and through `second`), queued once.
            #expect(reactor.pending.count == 1)
        }
        effect.stop()
    }

    @Test func aRefreshMarksWhatItChecksAndWhatItDerives() {
        let reactor = Reactor(scheduler: .endOfBatch)
        let source = Counter()
        var states: [(source: Computation.RefreshActivity, reader: Computation.RefreshActivity)] = []
        var secondNode: Computation?
        var firstNode: Computation?
        let first = reactor.computed {
            if let firstNode, let secondNode { states.append((firstNode.activity, secondNode.activity)) }
            return source.value + 1
        }
        let second = reactor.computed { first.value * 2 }
        firstNode = first.node
        secondNode = second.node
        let effect = reactor.autorun { _ in _ = second.value }
        // First computed by the autorun's first run, each deriving in turn.
        #expect(states.count == 1 && states.first?.source == .deriving && states.first?.reader == .deriving)
        states = []
        source.value = 1
        // The second computed checks its source, which derives its value.
        #expect(states.count == 1)
        #expect(states.first?.source == .deriving)
        #expect(states.first?.reader == .checking)
        #expect(first.node.activity == .idle && second.node.activity == .idle)
        effect.stop()
    }

    /// A computed's change that one checking computed alone reads marks that
    /// reader dirty (`Dependency.isReadOnly(byChecking:)`), and it is rederived.
    @Test func aChangeReadByOneCheckingComputedMarksItDirty() {
        let reactor = Reactor(scheduler: .endOfBatch)
        let source = Counter()
        var firstNode: Computation?
        var readers: [Computation?] = []
        let first = reactor.computed {
            // While it derives: the computed below it on the chain, if that one alone reads it and is checking.
            if let node = firstNode, let output = node.derivedOutput?.takeUnretainedValue(), let caller = node.derivingCaller {
                readers.append(output.isReadOnly(byChecking: caller) ? caller : nil)
            }
            return source.value + 1
        }
        firstNode = first.node
        let second = reactor.computed { first.value * 2 }
        var seen: [Int] = []
        let effect = reactor.autorun { _ in seen.append(second.value) }
        #expect(readers.count == 1 && readers[0] == nil)  // first run: its reader derives
        source.value = 1
        #expect(readers.count == 2 && readers[1] === second.node)
        #expect(seen == [2, 4])
        for node in [first.node, second.node] {
            #expect(node.derivedState == .clean && node.activity == .idle)
        }
        effect.stop()
    }

    /// A checking computed with `onInvalidate` callbacks, the only reader of
    /// a source that changes, goes through the general notification: its
    /// callbacks run.
    @Test func aCheckingReaderWithCallbacksHasThemRun() {
        let reactor = Reactor(scheduler: .endOfBatch)
        let source = Counter()
        let first = reactor.computed { source.value + 1 }
        var callbacks = 0
        let second = reactor.computed {
            reactor.currentComputation?.onInvalidate { _ in callbacks += 1 }
            return first.value * 2
        }
        var seen: [Int] = []
        let effect = reactor.autorun { _ in seen.append(second.value) }
        source.value = 1
        #expect(seen == [2, 4])
        #expect(callbacks == 1)
        effect.stop()
    }

    /// A computed's change read by two checking computeds marks both: the
    /// second is rederived when its own reader checks it, not left clean.
    @Test func aChangeReadByTwoComputedsMarksBoth() {
        let reactor = Reactor(scheduler: .endOfBatch)
        let source = Counter()
        let first = reactor.computed { source.value + 1 }
        let second = reactor.computed { first.value * 2 }
        let third = reactor.computed { first.value * 3 }
        var seen: [[Int]] = []
        let effect = reactor.autorun { _ in seen.append([second.value, third.value]) }
        source.value = 1
        #expect(seen == [[2, 3], [4, 6]])
        for node in [first.node, second.node, third.node] {
            #expect(node.derivedState == .clean && node.activity == .idle)
        }
        effect.stop()
    }

    @Test func autorunsQueuedByOneWritePastTheQueuesCapacityEachRunOnceAndLetGo() {
        let reactor = Reactor(scheduler: .endOfBatch)
        let source = Counter()
        let count = 100
        var runs = [Int](repeating: 0, count: count)
        weak var weakEffect: Computation?
        do {
            let effects = (0..<count).map { index in reactor.autorun { _ in _ = source.value; runs[index] += 1 } }
            weakEffect = effects[count - 1]
            let capacity = reactor.pending.capacity
            source.value = 1
            source.value = 2
            #expect(runs == [Int](repeating: 3, count: count))
            #expect(reactor.pending.capacity >= count && reactor.pending.capacity > capacity)
            #expect(effects.allSatisfy { $0.pendingEntries == 0 && !$0.queued })
            for effect in effects { effect.stop() }
        }
        #expect(weakEffect == nil)
    }

    /// A queued computation with no dependencies and no other reference holds
    /// itself through its entry in the pending queue: it reruns at the flush,
    /// and goes once the flush has dropped the entry.
    @Test func aComputationWithoutLinksQueuedByHandHoldsItselfUntilTheFlush() {
        let reactor = Reactor(scheduler: .manual)
        weak var weakComputation: Computation?
        var runs = 0
        do {
            let computation = reactor.autorun { _ in runs += 1 }
            weakComputation = computation
            #expect(!computation.holdsItself)
            computation.invalidate()
            #expect(computation.holdsItself && computation.pendingEntries == 1)
        }
        #expect(weakComputation != nil)
        reactor.flush()
        #expect(runs == 2)
        #expect(weakComputation == nil)
    }

    /// A stale computed read in a batch (no computation current) is brought
    /// up to date in place and links nothing.
    @Test func aStaleComputedReadInABatchIsRefreshedAndLinksNothing() {
        let reactor = Reactor(scheduler: .endOfBatch)
        let source = Counter()
        var runs = 0
        let computed = reactor.computed { runs += 1; return source.value + 1 }
        #expect(computed.value == 1 && runs == 1)
        reactor.batch {
            source.value = 5
            #expect(computed.node.derivedState == .dirty)
            #expect(computed.value == 6)
            #expect(computed.node.derivedState == .clean && computed.node.activity == .idle)
            #expect(computed.value == 6)
        }
        #expect(runs == 2)
        #expect(computed.output.subscribers.count == 0)
    }

    /// A stale computed read with the lock held outside any operation (the
    /// engine's own locked sections, such as a computed's release, run
    /// callbacks there) opens an operation for its refresh, as every refresh
    /// runs inside one.
    @Test func aStaleReadWithTheLockHeldOutsideAnyOperationRefreshesInsideOne() {
        let reactor = Reactor(scheduler: .endOfBatch)
        let source = Counter()
        let graph = reactor.graph
        var depthsSeen: [Int] = []
        let computed = reactor.computed { depthsSeen.append(graph.operationDepth); return source.value + 1 }
        _ = computed.value
        source.value = 2
        let value = graph.lock.withLock {
            #expect(graph.operationDepth == 0)
            return computed.value
        }
        #expect(value == 3)
        #expect(depthsSeen.count == 2 && depthsSeen.allSatisfy { $0 > 0 })
        // Clean now: read there again without running anything.
        #expect(graph.lock.withLock { computed.value } == 3)
        #expect(depthsSeen.count == 2)
    }
}
