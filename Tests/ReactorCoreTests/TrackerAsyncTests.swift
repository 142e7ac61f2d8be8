// The async cases of Tracker's suite (`tracker - async function - …`).
//
// A JavaScript async function runs synchronously up to its first `await`, and
// the rest runs later with no current computation unless it calls
// `Tracker.withComputation`. The Swift form of that is an autorun whose body
// does its synchronous part and starts a `Task` for the rest, which calls
// `reactor.withComputation`. Where Tracker's tests rely on timers to order
// things, these use gates, so the checks do not depend on the machine's speed.
import Synchronization
import Testing
import ReactorCore

/// A one-shot barrier: `wait()` suspends until `open()` (Tracker's tests use a
/// promise resolved by hand).
private final class Gate: Sendable {
    private let state = Mutex<(isOpen: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func wait() async {
        await withCheckedContinuation { continuation in
            let resumeNow = state.withLock { state in
                if state.isOpen { return true }
                state.waiters.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    func open() {
        let waiters = state.withLock { state in
            state.isOpen = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}

/// A counter shared by the tasks the autoruns start.
private final class SharedCount: Sendable {
    private let count = Mutex(0)
    var value: Int { count.withLock { $0 } }
    func add(_ delta: Int) { count.withLock { $0 += delta } }
}

@Suite struct TrackerAsyncTests {
    @Test("tracker - async function - interleaved")
    func interleaved() async {
        let reactor = Reactor(scheduler: .manual)
        let limit = 100
        let count = SharedCount()
        let seenOwnComputation = SharedCount()
        let start = Gate()
        var currentBefore = 0
        var tasks: [Task<Void, Never>] = []
        for _ in 0..<limit {
            reactor.autorun { computation in
                if reactor.currentComputation === computation { currentBefore += 1 }
                tasks.append(Task {
                    await start.wait()
                    // Finish in a random order, as Tracker's random timeouts do.
                    try? await Task.sleep(for: .milliseconds(Int.random(in: 0..<limit)))
                    count.add(1)
                    reactor.withComputation(computation) {
                        if reactor.currentComputation === computation { seenOwnComputation.add(1) }
                    }
                })
            }
        }
        #expect(currentBefore == limit)
        #expect(count.value == 0, "before resolve")
        start.open()
        for task in tasks { await task.value }
        #expect(count.value == limit, "after resolve")
        #expect(seenOwnComputation.value == limit)
        #expect(reactor.currentComputation == nil)
    }

    @Test("tracker - async function - parallel")
    func parallel() async {
        // Tracker flushes on its own after `changed()`; `.endOfBatch` does so
        // before `changed()` returns.
        let reactor = Reactor(scheduler: .endOfBatch)
        let limit = 100
        let count = SharedCount()
        let resolve = Gate()
        let dependency = Dependency()
        var tasks: [Task<Void, Never>] = []
        for _ in 0..<limit {
            reactor.autorun { computation in
                count.add(1)
                reactor.withComputation(computation) { _ = dependency.depend() }
                tasks.append(Task {
                    await resolve.wait()
                    count.add(-1)
                })
            }
        }
        #expect(count.value == limit, "before")
        dependency.changed()
        #expect(count.value == limit * 2, "changed")
        resolve.open()
        for task in tasks { await task.value }
        #expect(count.value == 0, "after")
    }

    @Test("tracker - async function - stepped")
    func stepped() async {
        let reactor = Reactor(scheduler: .manual)
        let limit = 100
        let count = SharedCount()
        let seenOwnComputation = SharedCount()
        let resolve = Gate()
        var currentBefore = 0
        var tasks: [Task<Void, Never>] = []
        for _ in 0..<limit {
            reactor.autorun { computation in
                if reactor.currentComputation === computation { currentBefore += 1 }
                tasks.append(Task {
                    await resolve.wait()
                    count.add(1)
                    reactor.withComputation(computation) {
                        if reactor.currentComputation === computation { seenOwnComputation.add(1) }
                    }
                })
            }
        }
        #expect(currentBefore == limit)
        #expect(count.value == 0, "before resolve")
        resolve.open()
        for task in tasks { await task.value }
        #expect(count.value == limit, "after resolve")
        #expect(seenOwnComputation.value == limit)
    }

    @Test func readsInsideWithComputationAfterTheRunAreDependencies() async {
        // What the async cases are for: a value read after an await, inside
        // withComputation, reruns the computation when it changes.
        let reactor = Reactor(scheduler: .manual)
        let early = Dependency("early"), late = Dependency("late")
        var runs = 0
        var tasks: [Task<Void, Never>] = []
        let computation = reactor.autorun { computation in
            runs += 1
            early.depend()
            tasks.append(Task { reactor.withComputation(computation) { _ = late.depend() } })
        }
        for task in tasks { await task.value }
        #expect(late.hasDependents)
        late.changed()
        reactor.flush()
        #expect(runs == 2)
        for task in tasks { await task.value }
        computation.stop()
        #expect(!late.hasDependents && !early.hasDependents)
    }

    @Test func withComputationRestoresTheCurrentComputationAndNilIsNonreactive() {
        let reactor = Reactor(scheduler: .manual)
        let dependency = Dependency()
        var other: Computation?
        var restored = false
        let outer = reactor.autorun { computation in
            reactor.withComputation(nil) { _ = dependency.depend() }
            reactor.withComputation(other) { #expect(reactor.currentComputation === other) }
            restored = reactor.currentComputation === computation
        }
        other = reactor.autorun { _ in }
        #expect(restored)
        #expect(!dependency.hasDependents)
        outer.invalidate()
        reactor.flush()
        #expect(restored)
        #expect(reactor.currentComputation == nil)
    }
}
