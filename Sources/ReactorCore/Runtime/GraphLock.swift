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
/// Internal storage: `@unchecked Sendable` because the mutex and the atomic owner
/// word are the synchronisation. A non-copyable struct stored in `Graph`, so
/// that the re-entrancy check loads the owner word from the graph itself, not
/// through a pointer to a lock object (one dependent load fewer on every read).
@usableFromInline
struct GraphLock: ~Copyable, @unchecked Sendable {
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
    /// The thread that holds the lock, or 0. Written only by the holder.
    @usableFromInline let owner = Atomic<UInt>(0)
    /// The id of the autorun the holder is running, or 0: what a write that
    /// waits too long names. Relaxed stores by the holder (plain moves on x86-64
    /// and arm64); read only by a waiter past the threshold.
    let runningComputation = Atomic<UInt64>(0)

    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
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
    /// Only the holder writes `owner`, so no other thread can make this true.
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
    /// Uncontended, one try-lock (the same atomic exchange as a lock); only a
    /// thread that finds it taken goes to ``acquireContended()``.
    @inlinable
    func acquire(_ me: UInt) {
        if _slowPath(pthread_mutex_trylock(mutex) != 0) { acquireContended() }
        owner.store(me, ordering: .relaxed)
    }

    /// Waits for the lock. Past ``Reactor/lockWaitThreshold`` it reports a
    /// `.lockWait` issue naming the computation the holder is running (once per
    /// wait), then goes on waiting: a deadlock is diagnosable from the trace.
    @usableFromInline @inline(never)
    func acquireContended() {
        #if os(Linux)
        let threshold = lockWaitThresholdNanoseconds.load(ordering: .relaxed)
        if threshold > 0 {
            var deadline = timespec()
            // timedlock's deadline is on the realtime clock.
            clock_gettime(CLOCK_REALTIME, &deadline)
            let nanoseconds = Int64(deadline.tv_nsec) + threshold % 1_000_000_000
            deadline.tv_sec += Int(threshold / 1_000_000_000 + nanoseconds / 1_000_000_000)
            deadline.tv_nsec = Int(nanoseconds % 1_000_000_000)
            let status = pthread_mutex_timedlock(mutex, &deadline)
            if status == 0 { return }
            if status == ETIMEDOUT {
                Reactor.reportLockWait(.lockWait(holder: runningComputation.load(ordering: .relaxed),
                                                 waited: .nanoseconds(threshold)))
            }
        }
        #endif
        pthread_mutex_lock(mutex)
    }

    /// Gives back the lock taken with ``acquire(_:)``.
    @inlinable
    func release() {
        owner.store(0, ordering: .relaxed)
        pthread_mutex_unlock(mutex)
    }
}
