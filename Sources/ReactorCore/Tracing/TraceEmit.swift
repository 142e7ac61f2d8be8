import Synchronization

/// The tracing flag of the hot paths, and the one event they still emit out of line.
///
/// A node update reads `isOn` (then `valuesOn`) once and runs a traced or an
/// untraced copy of itself (`Computation.refreshStaleDerived()`, `compute()`,
/// `Dependency.publishChange()`): the untraced copy is the code of a build with
/// tracing compiled out, and the traced one calls the tracer inline.
@usableFromInline
enum TraceEmit {
    /// True when a tracer is installed (always false when tracing is compiled out).
    @inlinable @inline(__always)
    static var isOn: Bool {
        #if Tracing
        // Acquiring, as in `withTracer`, which loads the slot again to emit.
        tracerSlot.load(ordering: .acquiring) != nil
        #else
        false
        #endif
    }

    /// True when the installed tracer records values (a second load of the
    /// slot, on traced paths only).
    @inlinable @inline(__always)
    static var valuesOn: Bool {
        #if Tracing
        if let box = tracerSlot.load(ordering: .acquiring) {
            return box._withUnsafeGuaranteedRef { $0.valueLengthLimit > 0 }
        }
        #endif
        return false
    }

    /// Records a traced read kept in place and returns true, the read's
    /// answer; true also when the tracer went away meanwhile. The event is
    /// written inline through the thread's encoder when it can be
    /// (`TraceHook.depend`); otherwise the caller returns this call's result,
    /// so the tracer's entry point is reached with a jump and returns to the
    /// reader directly.
    @inlinable @inline(__always)
    static func dependInPlace(computation: UInt64, dependency: UInt64) -> Bool {
        #if Tracing
        if let box = tracerSlot.load(ordering: .acquiring) {
            return box._withUnsafeGuaranteedRef { TraceHook(box: $0).depend(computation: computation, dependency: dependency) }
        }
        #endif
        return true
    }

    /// `depend` for a read off the last run's order (rare): out of line, so
    /// that `withTracer`'s call does not grow `linkOutOfOrder`.
    @usableFromInline @inline(never)
    static func depend(computation: UInt64, dependency: UInt64) {
        withTracer { $0.depend(computation: computation, dependency: dependency) }
    }
}
