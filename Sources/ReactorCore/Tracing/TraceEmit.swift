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
    /// written inline through the thread's encoder when it is the installed
    /// recording's and has room (`TraceThreadEncoder.withInstalled(_:)`);
    /// otherwise the caller returns this call's result, so the out-of-line
    /// path is reached with a jump and returns to the reader directly.
    @inlinable @inline(__always)
    static func dependInPlace(computation: UInt64, dependency: UInt64) -> Bool {
        #if Tracing
        if _fastPath(TraceThreadEncoder.withInstalled({
            $0.recordDepend(computation: computation, dependency: dependency, at: $0.cursor)
        })) {
            return true
        }
        return dependThroughTracer(computation: computation, dependency: dependency)
        #else
        return true
        #endif
    }

    /// `dependInPlace`'s event through the installed tracer's entry point,
    /// which takes it in full; then its box is noted for the next events.
    @usableFromInline @inline(never)
    static func dependThroughTracer(computation: UInt64, dependency: UInt64) -> Bool {
        withTracer { hook in
            _ = hook.box.hot.depend(hook.box.hot.context, computation, dependency)
            TraceThreadEncoder.noteInstalled(hook.box)
        }
        return true
    }

    /// Records an invalidation of a traced node update: inline through the
    /// thread's encoder as `dependInPlace`, else through the installed tracer.
    @inlinable @inline(__always)
    static func invalidated(computation: UInt64, cause: ReactorTracing.InvalidationCause, source: UInt64) {
        #if Tracing
        if _fastPath(TraceThreadEncoder.withInstalled({
            $0.recordInvalidated(computation: computation, cause: cause.traceCode, source: source, at: $0.cursor)
        })) {
            return
        }
        invalidatedThroughTracer(computation: computation, cause: cause, source: source)
        #endif
    }

    /// `invalidated`'s event through the installed tracer's entry point; then
    /// its box is noted for the next events.
    @usableFromInline @inline(never)
    static func invalidatedThroughTracer(computation: UInt64, cause: ReactorTracing.InvalidationCause, source: UInt64) {
        withTracer { hook in
            hook.box.hot.invalidated(hook.box.hot.context, computation, cause, source)
            TraceThreadEncoder.noteInstalled(hook.box)
        }
    }

    /// `depend` for a read off the last run's order (rare): out of line, so
    /// that `withTracer`'s call does not grow `linkOutOfOrder`.
    @usableFromInline @inline(never)
    static func depend(computation: UInt64, dependency: UInt64) {
        withTracer { $0.depend(computation: computation, dependency: dependency) }
    }
}
