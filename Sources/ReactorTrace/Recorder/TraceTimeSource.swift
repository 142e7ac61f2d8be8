import CReactorTraceClock
import Foundation

/// How a recording reads event times: nanoseconds since the trace began.
///
/// On x86-64, when the kernel itself keeps time with the TSC (its clocksource
/// is `tsc`, which it only picks when the counter is invariant and synchronised
/// across cores), the recorder reads the counter directly (about 10 ns instead of
/// 25 ns for `clock_gettime` in a VM) and scales it with a factor calibrated
/// against `CLOCK_MONOTONIC` over 2 ms at start (within tens of ppm). Elsewhere it
/// calls `clock_gettime(CLOCK_MONOTONIC)`.
struct TraceTimeSource: Sendable {
    /// True when reading the cycle counter.
    let usesTicks: Bool
    /// `CLOCK_MONOTONIC` at trace time 0.
    let monotonicStart: UInt64
    /// The cycle counter at trace time 0.
    let tickStart: UInt64
    /// Nanoseconds per tick, in 32.32 fixed point.
    let nanosecondsPerTick: UInt64

    /// The clock code the header records.
    var clock: TraceClock { usesTicks ? .calibratedTicks : .monotonic }

    /// A time source starting now; `preferTicks` allows the cycle counter.
    static func start(preferTicks: Bool) -> TraceTimeSource {
        if preferTicks, reactor_trace_has_ticks() != 0, kernelKeepsTimeWithTSC(),
           let calibrated = calibrate() {
            return calibrated
        }
        return TraceTimeSource(usesTicks: false, monotonicStart: MonotonicClock.now(), tickStart: 0, nanosecondsPerTick: 0)
    }

    /// Nanoseconds since the trace began (0 if a reading falls before it).
    @inline(__always)
    func now() -> UInt64 {
        usesTicks ? ticksNow() : monotonicNow()
    }

    /// `now()` from the cycle counter; only when ``usesTicks``. No call: the
    /// recorder's fast paths read it without a stack frame.
    @inline(__always)
    func ticksNow() -> UInt64 {
        let ticks = reactor_trace_ticks()
        guard ticks > tickStart else { return 0 }
        // The 128-bit product's bits 32 to 95: one `shrd` after the `mul`
        // (the two 64-bit halves shifted and ORed took four instructions).
        let product = UInt128(ticks &- tickStart) &* UInt128(nanosecondsPerTick)
        return UInt64(truncatingIfNeeded: product &>> 32)
    }

    /// `now()` without the cycle counter. Out of line: the `timespec` it needs
    /// would otherwise give every timed event a stack frame and a stack-protector check.
    @inline(never)
    func monotonicNow() -> UInt64 {
        let now = MonotonicClock.now()
        return now > monotonicStart ? now &- monotonicStart : 0
    }

    /// A (ticks, CLOCK_MONOTONIC) pair read as close together as possible.
    private static func pair() -> (ticks: UInt64, monotonic: UInt64) {
        var best: (ticks: UInt64, monotonic: UInt64, spread: UInt64) = (0, 0, .max)
        for _ in 0..<5 {
            let before = reactor_trace_ticks()
            let monotonic = MonotonicClock.now()
            let after = reactor_trace_ticks()
            guard after >= before else { continue }
            if after - before < best.spread { best = (before + (after - before) / 2, monotonic, after - before) }
        }
        return (best.ticks, best.monotonic)
    }

    private static func calibrate() -> TraceTimeSource? {
        let first = pair()
        while MonotonicClock.now() &- first.monotonic < 2_000_000 {}
        let second = pair()
        guard second.ticks > first.ticks, second.monotonic > first.monotonic else { return nil }
        let factor = ((second.monotonic - first.monotonic) << 32) / (second.ticks - first.ticks)
        // Counters from 100 MHz to 100 GHz are plausible; anything else is not a TSC to trust.
        guard factor > (1 << 32) / 100, factor < (1 << 32) * 10 else { return nil }
        return TraceTimeSource(usesTicks: true, monotonicStart: first.monotonic, tickStart: first.ticks,
                               nanosecondsPerTick: factor)
    }

    private static func kernelKeepsTimeWithTSC() -> Bool {
        let path = "/sys/devices/system/clocksource/clocksource0/current_clocksource"
        guard let source = try? String(contentsOfFile: path, encoding: .utf8) else { return false }
        return source.trimmingCharacters(in: .whitespacesAndNewlines) == "tsc"
    }
}
