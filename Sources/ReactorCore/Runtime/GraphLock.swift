#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization
import CReactorCoreThread

/// How long a thread waits for the graph lock before it reports a `.lockWait`
/// issue, in nanoseconds (0: never). See ``Reactor/lockWaitThreshold``.
let lockWaitThresholdNanoseconds = Atomic<Int64>(1_000_000_000)

/// The process-wide recursive lock that guards the reactive graph.
///
/// Every edge, every queue and every flag of every `Reactor` is read and written
/// under this lock, so one runtime runs one flush at a time and never two of its
/// computations at once. A computation's body runs with the lock held, so
/// `depend()` and `changed()` inside it only pay the re-entrancy check.
///
/// The lock is its owner word: taken by one compare-and-exchange from 0 to the
/// taking thread, given back by storing 0 (an uncontended take and give cost
/// two atomic instructions, where a mutex's trylock and unlock are two calls
/// of some thirty instructions each). A thread that finds it taken sleeps on a
/// condition variable, whose mutex only waiting and waking threads touch.
///
/// Internal storage: `@unchecked Sendable` because the atomics are the
/// synchronisation. A non-copyable struct stored in `Graph`, so that the
/// re-entrancy check loads the owner word from the graph itself, not through
/// a pointer to a lock object (one dependent load fewer on every read).
@usableFromInline
struct GraphLock: ~Copyable, @unchecked Sendable {
    /// The thread that holds the lock, or 0. Set by the taking thread's
    /// compare-and-exchange, cleared by the holder.
    @usableFromInline let owner = Atomic<UInt>(0)
    /// Threads in ``acquireContended(_:)``: changed with `waitMutex` held,
    /// read by the holder as it gives the lock back (a wake-up is owed).
    @usableFromInline let waiters = Atomic<Int>(0)
    let waitMutex: UnsafeMutablePointer<pthread_mutex_t>
    let waitCondition: UnsafeMutablePointer<pthread_cond_t>
    /// The computation the holder is running (its `Unmanaged` bits), or 0: what a
    /// write that waits too long names. Release stores by the holder (plain moves
    /// on x86-64); read only by a waiter past the threshold, with `waitMutex`
    /// held, which a computation's deinit takes before its memory goes
    /// (``waitForReaders()``), so the waiter never reads a freed one.
    let runningComputation = Atomic<UInt>(0)

    init() {
        waitMutex = .makeMutex()
        waitCondition = .makeCondition()
    }

    deinit {
        waitCondition.destroyCondition()
        waitMutex.destroyMutex()
    }

    /// The calling thread's identity (its thread pointer where the compiler
    /// can read it: one inlined instruction rather than a call to `pthread_self`).
    @inlinable
    static var currentThread: UInt {
        UInt(reactor_core_current_thread())
    }

    /// True when the calling thread holds the lock (it is inside a computation,
    /// a flush, a batch or another graph operation).
    @inlinable
    var isHeldByCurrentThread: Bool {
        isHeld(by: GraphLock.currentThread)
    }

    /// True when the thread `me` (the caller's `currentThread`) holds the lock.
    /// Only `me` can store `me`, so no other thread can make this true.
    @inlinable
    func isHeld(by me: UInt) -> Bool {
        owner.load(ordering: .relaxed) == me
    }

    /// Runs `body` with the lock held; re-entrant on the holding thread.
    @inlinable
    func withLock<R>(_ body: () throws -> R) rethrows -> R {
        let me = GraphLock.currentThread
        if isHeld(by: me) { return try body() }
        acquire(me)
        defer { release() }
        return try body()
    }

    /// Takes the lock for the thread `me`, which must not hold it already.
    /// Uncontended, one compare-and-exchange; only a thread that finds it
    /// taken goes to ``acquireContended(_:)``.
    @inlinable
    func acquire(_ me: UInt) {
        // Sequentially consistent, as the waiter's count and the release:
        // a waiter that counted itself then failed to take the lock is seen
        // by the release that follows (see `release()`).
        if _slowPath(!owner.compareExchange(expected: 0, desired: me, ordering: .sequentiallyConsistent).exchanged) {
            acquireContended(me)
        }
    }

    /// Waits for the lock. Past ``Reactor/lockWaitThreshold`` it reports a
    /// `.lockWait` issue naming the computation the holder is running (once per
    /// wait), then goes on waiting: a deadlock is diagnosable from the trace.
    @usableFromInline @inline(never)
    func acquireContended(_ me: UInt) {
        pthread_mutex_lock(waitMutex)
        waiters.add(1, ordering: .sequentiallyConsistent)
        let threshold = lockWaitThresholdNanoseconds.load(ordering: .relaxed)
        var deadline = timespec()
        if threshold > 0 {
            // The condition variable's deadline is on the realtime clock.
            clock_gettime(CLOCK_REALTIME, &deadline)
            let nanoseconds = Int64(deadline.tv_nsec) + threshold % 1_000_000_000
            deadline.tv_sec += Int(threshold / 1_000_000_000 + nanoseconds / 1_000_000_000)
            deadline.tv_nsec = Int(nanoseconds % 1_000_000_000)
        }
        var reported = threshold <= 0
        while !owner.compareExchange(expected: 0, desired: me, ordering: .sequentiallyConsistent).exchanged {
            if reported {
                pthread_cond_wait(waitCondition, waitMutex)
            } else if pthread_cond_timedwait(waitCondition, waitMutex, &deadline) == ETIMEDOUT {
                reported = true
                let (holder, holderName) = runningComputationIdentity()
                // Not holding the wait mutex: the handler is user code, and
                // the holder's release may need the mutex to wake a waiter.
                pthread_mutex_unlock(waitMutex)
                Reactor.reportLockWait(.lockWait(holder: holder, holderName: holderName, waited: .nanoseconds(threshold)))
                pthread_mutex_lock(waitMutex)
            }
        }
        waiters.subtract(1, ordering: .sequentiallyConsistent)
        pthread_mutex_unlock(waitMutex)
    }

    /// The id and name of the computation the holder is running ((0, nil):
    /// none). Called with `waitMutex` held: see ``runningComputation``.
    private func runningComputationIdentity() -> (UInt64, String?) {
        guard let pointer = UnsafeRawPointer(bitPattern: runningComputation.load(ordering: .acquiring)) else { return (0, nil) }
        return Unmanaged<Computation>.fromOpaque(pointer)._withUnsafeGuaranteedRef { ($0.id, $0.name) }
    }

    /// Returns once no waiter is reading ``runningComputation``'s computation:
    /// a computation calls it as it is freed.
    func waitForReaders() {
        pthread_mutex_lock(waitMutex)
        pthread_mutex_unlock(waitMutex)
    }

    /// Gives back the lock taken with ``acquire(_:)``.
    @inlinable
    func release() {
        owner.store(0, ordering: .sequentiallyConsistent)
        // A waiter counts itself before its last try to take the lock, so it
        // either took it or is counted here (both orders are sequentially
        // consistent); it counts and waits with the wait mutex held, so the
        // wake-up below cannot come between its try and its wait.
        if _slowPath(waiters.load(ordering: .sequentiallyConsistent) > 0) { wakeWaiter() }
    }

    /// Wakes one waiting thread, which tries to take the lock again.
    @usableFromInline @inline(never)
    func wakeWaiter() {
        pthread_mutex_lock(waitMutex)
        pthread_cond_signal(waitCondition)
        pthread_mutex_unlock(waitMutex)
    }
}
