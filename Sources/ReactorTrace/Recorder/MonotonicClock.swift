#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The clocks the recorder reads: `CLOCK_MONOTONIC` for event times (a vDSO
/// call on Linux, no system call) and `CLOCK_REALTIME` once for the header.
enum MonotonicClock {
    /// Monotonic nanoseconds since an arbitrary origin (boot on Linux).
    @inline(__always)
    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(truncatingIfNeeded: time.tv_sec) &* 1_000_000_000 &+ UInt64(truncatingIfNeeded: time.tv_nsec)
    }

    /// Wall-clock nanoseconds since the Unix epoch.
    static func wallNow() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return UInt64(truncatingIfNeeded: time.tv_sec) &* 1_000_000_000 &+ UInt64(truncatingIfNeeded: time.tv_nsec)
    }
}
