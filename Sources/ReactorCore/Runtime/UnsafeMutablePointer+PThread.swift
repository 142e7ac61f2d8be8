#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// pthread objects live at a fixed address of their own: moving one (a stored
// struct, a class's field read through an accessor) is undefined.

extension UnsafeMutablePointer where Pointee == pthread_mutex_t {
    /// A new mutex, initialized; `destroyMutex()` frees it.
    static func makeMutex() -> Self {
        let mutex = allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        return mutex
    }

    /// Destroys and frees a mutex made by `makeMutex()`.
    func destroyMutex() {
        pthread_mutex_destroy(self)
        deallocate()
    }
}

extension UnsafeMutablePointer where Pointee == pthread_cond_t {
    /// A new condition variable, initialized; `destroyCondition()` frees it.
    static func makeCondition() -> Self {
        let condition = allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        pthread_cond_init(condition, nil)
        return condition
    }

    /// Destroys and frees a condition variable made by `makeCondition()`.
    func destroyCondition() {
        pthread_cond_destroy(self)
        deallocate()
    }
}
