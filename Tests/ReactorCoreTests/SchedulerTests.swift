import Dispatch
import Testing
import ReactorCore

private final class Counter {
    @Reactive var count = 0
    @Reactive var other = 0
}

/// Writes `counter.count` when it goes away.
private final class WriterOnDeinit {
    let counter: Counter

    init(_ counter: Counter) { self.counter = counter }

    deinit { counter.count += 1 }
}

@Suite struct SchedulerTests {
    @Test func batchOfManyWritesRerunsOnceAtItsEnd() {
        let reactor = Reactor()
        let counter = Counter()
        var seen: [Int] = []
        reactor.autorun { _ in seen.append(counter.count + counter.other) }
        reactor.batch {
            for _ in 0..<100 { counter.count += 1 }
            counter.other = 1000
            #expect(seen == [0])
        }
        #expect(seen == [0, 1100])
    }

    @Test func nestedBatchesRerunAtTheEndOfTheOutermost() {
        let reactor = Reactor()
        let counter = Counter()
        var runs = 0
        reactor.autorun { _ in _ = counter.count; runs += 1 }
        let result = reactor.batch {
            counter.count = 1
            reactor.batch {
                counter.count = 2
                reactor.batch { counter.count = 3 }
                #expect(runs == 1)
            }
            #expect(runs == 1)
            counter.count = 4
            return counter.count
        }
        #expect(result == 4)
        #expect(runs == 2)
    }

    @Test func batchRethrowsAndStillFlushes() {
        let reactor = Reactor()
        let counter = Counter()
        var seen: [Int] = []
        reactor.autorun { _ in seen.append(counter.count) }
        #expect(throws: TestError.self) {
            try reactor.batch {
                counter.count = 7
                throw TestError("stop")
            }
        }
        #expect(seen == [0, 7])
    }

    @Test func endOfBatchRerunsSynchronouslyAfterAWrite() {
        let reactor = Reactor(scheduler: .endOfBatch)
        let counter = Counter()
        var seen: [Int] = []
        reactor.autorun { _ in seen.append(counter.count) }
        counter.count = 1
        #expect(seen == [0, 1])
        let dependency = Dependency()
        var runs = 0
        reactor.autorun { _ in dependency.depend(); runs += 1 }
        dependency.changed()
        #expect(runs == 2)
        #expect(reactor.flushes >= 2)
    }

    @Test func flushByHandInsideABatchLeavesNothingForItsEnd() {
        let reactor = Reactor()
        let dependency = Dependency()
        var runs = 0
        reactor.autorun { _ in dependency.depend(); runs += 1 }
        let before = reactor.flushes
        reactor.batch {
            dependency.changed()
            reactor.flush()
            #expect(runs == 2)
        }
        #expect(runs == 2)
        #expect(reactor.flushes == before + 1)
    }

    @Test func endOfBatchRunsAfterFlushCallbacksAtOnce() {
        let reactor = Reactor()
        var ran = false
        reactor.afterFlush { ran = true }
        #expect(ran)
    }

    @Test func manualRerunsNothingUntilFlush() {
        let reactor = Reactor(scheduler: .manual)
        let counter = Counter()
        var seen: [Int] = []
        reactor.autorun { _ in seen.append(counter.count) }
        counter.count = 1
        counter.count = 2
        reactor.batch { counter.count = 3 }
        var afterFlushRan = false
        reactor.afterFlush { afterFlushRan = true }
        #expect(seen == [0])
        #expect(!afterFlushRan)
        reactor.flush()
        #expect(seen == [0, 3])
        #expect(afterFlushRan)
    }

    @Test func dispatchRerunsAsynchronouslyOnItsQueue() {
        let key = DispatchSpecificKey<Int>()
        let queue = DispatchQueue(label: "SchedulerTests.dispatch")
        queue.setSpecific(key: key, value: 42)
        let reactor = Reactor(scheduler: .dispatch(queue))
        let counter = Counter()
        let rerun = DispatchSemaphore(value: 0)
        var seen: [(value: Int, onQueue: Bool)] = []
        reactor.autorun { c in
            seen.append((counter.count, DispatchQueue.getSpecific(key: key) == 42))
            if !c.isFirstRun { rerun.signal() }
        }
        queue.suspend()
        counter.count = 1
        counter.count = 2
        // The queue is suspended: the write returned without rerunning.
        #expect(seen.count == 1)
        queue.resume()
        #expect(rerun.wait(timeout: .now() + 60) == .success)
        let done = DispatchSemaphore(value: 0)
        queue.async { done.signal() }
        done.wait()
        #expect(seen.count == 2)
        #expect(seen.first?.value == 0)
        #expect(seen.first?.onQueue == false)
        #expect(seen.last?.value == 2)  // both writes, one rerun
        #expect(seen.last?.onQueue == true)
    }

    @Test func dispatchSkipsAScheduledFlushAfterAFlushByHand() {
        let queue = DispatchQueue(label: "SchedulerTests.skip")
        let reactor = Reactor(scheduler: .dispatch(queue))
        let counter = Counter()
        var runs = 0
        reactor.autorun { _ in _ = counter.count; runs += 1 }
        queue.suspend()
        counter.count = 1  // schedules a flush on the suspended queue
        reactor.flush()
        #expect(runs == 2)
        let flushesByHand = reactor.flushes
        queue.resume()
        queue.sync {}
        #expect(reactor.flushes == flushesByHand)
        #expect(runs == 2)
    }

    @Test func aWriteByADeinitAsTheFlushLetsGoOfItsComputationsRerunsItsReaders() {
        let reactor = Reactor(scheduler: .manual)
        let counter = Counter()
        var runs = 0
        reactor.autorun { _ in _ = counter.count; runs += 1 }
        var firstRun = true
        // Not kept: it lives by its dependency on `other`, then by its queue entry.
        reactor.autorun { [writer = WriterOnDeinit(counter)] _ in
            _ = writer
            if firstRun { firstRun = false; _ = counter.other }
        }
        counter.other = 1
        reactor.flush()  // its rerun reads nothing; the flush drops the last reference
        #expect(runs == 2)
        counter.count = 10
        reactor.flush()
        #expect(runs == 3)
    }

    @Test func afterFlushCallbacksAddedDuringAFlushRunInIt() {
        let reactor = Reactor(scheduler: .manual)
        var order: [Int] = []
        reactor.afterFlush {
            order.append(1)
            reactor.afterFlush { order.append(3) }
        }
        reactor.afterFlush { order.append(2) }
        reactor.flush()
        #expect(order == [1, 2, 3])
        reactor.flush()
        #expect(order == [1, 2, 3])
        var count = 0
        for _ in 0..<20_000 { reactor.afterFlush { count += 1 } }
        reactor.flush()
        #expect(count == 20_000)
    }

    @Test func dispatchRunsAfterFlushOnTheQueue() {
        let queue = DispatchQueue(label: "SchedulerTests.afterFlush")
        let reactor = Reactor(scheduler: .dispatch(queue))
        let ran = DispatchSemaphore(value: 0)
        reactor.afterFlush {
            dispatchPrecondition(condition: .onQueue(queue))
            ran.signal()
        }
        #expect(ran.wait(timeout: .now() + 60) == .success)
    }

    @Test func nonreactiveReadsAreNotTracked() {
        let reactor = Reactor()
        let counter = Counter()
        var runs = 0
        reactor.autorun { _ in
            runs += 1
            let value = reactor.nonreactive { counter.count }
            _ = value
            #expect(reactor.nonreactive { reactor.isActive } == false)
        }
        counter.count = 1
        #expect(runs == 1)
        #expect(!counter.$count.projectedDependency.hasDependents)
        #expect(reactor.nonreactive { 5 } == 5)
    }

    @Test func inFlushIsTrueOnlyDuringAFlush() {
        let reactor = Reactor(scheduler: .manual)
        var seen: [Bool] = []
        reactor.afterFlush { seen.append(reactor.inFlush) }
        seen.append(reactor.inFlush)
        reactor.flush()
        #expect(seen == [false, true])
    }
}
