#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A value behind a `pthread_mutex_t`, for state off the hot paths that
/// threads share (the manual clock, the tracer's registry, the trace
/// recorder's hand-offs). A pthread mutex rather than `Synchronization.Mutex`
/// so that ThreadSanitizer, which intercepts pthreads, sees the
/// synchronisation (`make tsan`): a contended `Mutex` waits in the standard
/// library's uninstrumented code, and what it guards is reported as racing.
///
/// Internal storage: `@unchecked Sendable` because `value` is only touched
/// with the mutex held.
package final class LockedValue<Value>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    /// Unchecked for exclusivity at run time: the mutex makes every access
    /// exclusive (a body that used the lock again would deadlock first).
    @exclusivity(unchecked) private var value: Value

    package init(_ value: Value) {
        self.value = value
        mutex = .makeMutex()
    }

    deinit {
        mutex.destroyMutex()
    }

    /// Runs `body` on the value with the mutex held.
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
