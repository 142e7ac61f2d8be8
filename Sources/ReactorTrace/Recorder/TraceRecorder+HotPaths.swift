import ReactorCore

// The recorder's own entry points for the node-update events: the core calls
// them through function pointers (`TraceHotPaths`) with the recorder as first
// argument, not through the protocol's witness thunks. Each is the protocol
// method's fast path (the same `ThreadRecorder.record…`), and its slow path
// calls the protocol method's, so the events and their bytes are the same.
//
// Static, with the recorder as a plain argument: an instance method would
// keep it in the `self` register, which a function pointer's callee must
// save and restore. A slow path takes the entry point's arguments, so the
// fast path reaches it with a jump.
extension TraceRecorder: TraceHotPathProvider {
    /// This recorder's entry points, with itself (unretained) as context.
    package var hotPaths: TraceHotPaths {
        TraceHotPaths(
            context: UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque()),
            recording: generation,
            depend: { context, computation, dependency in
                if !TraceRecorder.recordFast(context, timed: false, {
                    $0.recordDepend(computation: computation, dependency: dependency, at: $0.cursor)
                }) {
                    return TraceRecorder.dependSlowly(context, computation, dependency)
                }
                return true
            },
            changed: { context, dependency in
                if !TraceRecorder.recordFast(context, timed: false, { $0.recordChanged(dependency: dependency, at: $0.cursor) }) {
                    TraceRecorder.changedSlowly(context, dependency)
                }
            },
            invalidated: { context, computation, cause, source in
                if !TraceRecorder.recordFast(context, timed: false, {
                    $0.recordInvalidated(computation: computation, cause: cause.traceCode, source: source, at: $0.cursor)
                }) {
                    TraceRecorder.invalidatedSlowly(context, computation, cause, source)
                }
            },
            rerunBegan: { context, computation, firstRun in
                if !TraceRecorder.recordFast(context, timed: true, {
                    $0.recordRerunBegan(computation: computation, firstRun: firstRun, time: $0.fastTime(), at: $0.cursor)
                }) {
                    TraceRecorder.rerunBeganSlowly(context, computation, firstRun)
                }
            },
            rerunEnded: { context, computation in
                if !TraceRecorder.recordFast(context, timed: true, {
                    $0.recordRerunEnded(computation: computation, time: $0.fastTime(), at: $0.cursor)
                }) {
                    TraceRecorder.rerunEndedSlowly(context, computation)
                }
            },
            rerunEndedChanged: { context, computation, output in
                if !TraceRecorder.recordFast(context, timed: true, {
                    $0.recordRerunEnded(computation: computation, changed: output, time: $0.fastTime(), at: $0.cursor)
                }) {
                    TraceRecorder.rerunEndedSlowly(context, computation, output)
                }
            },
            rerunEndedInvalidating: { context, computation, output, reader in
                if !TraceRecorder.recordFast(context, timed: true, {
                    $0.recordRerunEnded(computation: computation, changed: output, invalidated: reader, rerunning: false,
                                        time: $0.fastTime(), at: $0.cursor)
                }) {
                    TraceRecorder.rerunEndedInvalidatingSlowly(context, computation, output, reader)
                }
            },
            rerunEndedRerunning: { context, computation, output, reader in
                if !TraceRecorder.recordFast(context, timed: true, {
                    $0.recordRerunEnded(computation: computation, changed: output, invalidated: reader, rerunning: true,
                                        time: $0.fastTime(), at: $0.cursor)
                }) {
                    TraceRecorder.rerunEndedRerunningSlowly(context, computation, output, reader)
                }
            },
            rerunEndedBeginning: { context, computation, next in
                if !TraceRecorder.recordFast(context, timed: true, {
                    $0.recordRerunEnded(computation: computation, beginning: next, time: $0.fastTime(), at: $0.cursor)
                }) {
                    TraceRecorder.rerunEndedBeginningSlowly(context, computation, next)
                }
            })
    }

    /// Runs `body` with the calling thread's encoder when it is the recording's
    /// at `context` (borrowed: the tracer box holding the entry points keeps it
    /// alive) and the event can take the fast path; the thread's encoder, not
    /// its state holding it: one load fewer on every event. False otherwise.
    @inline(__always)
    private static func recordFast(_ context: UnsafeRawPointer, timed: Bool, _ body: (TraceThreadEncoder) -> Void) -> Bool {
        let recording = Unmanaged<TraceRecorder>.fromOpaque(context)._withUnsafeGuaranteedRef { $0.generation }
        return TraceThreadEncoder.withCurrent(of: recording, timed: timed, body)
    }

    /// Runs `body` with the recorder at `context`, borrowed.
    @inline(__always)
    private static func with(_ context: UnsafeRawPointer, _ body: (TraceRecorder) -> Void) {
        Unmanaged<TraceRecorder>.fromOpaque(context)._withUnsafeGuaranteedRef(body)
    }

    @inline(never)
    private static func dependSlowly(_ context: UnsafeRawPointer, _ computation: UInt64, _ dependency: UInt64) -> Bool {
        with(context) { $0.depend(computation: computation, dependency: dependency) }
        return true
    }

    @inline(never)
    private static func changedSlowly(_ context: UnsafeRawPointer, _ dependency: UInt64) {
        with(context) { $0.changed(dependency: dependency) }
    }

    @inline(never)
    private static func invalidatedSlowly(_ context: UnsafeRawPointer, _ computation: UInt64,
                                          _ cause: ReactorTracing.InvalidationCause, _ source: UInt64) {
        with(context) { $0.invalidated(computation: computation, cause: cause, source: source) }
    }

    @inline(never)
    private static func rerunBeganSlowly(_ context: UnsafeRawPointer, _ computation: UInt64, _ firstRun: Bool) {
        with(context) { $0.rerunBegan(computation: computation, firstRun: firstRun) }
    }

    @inline(never)
    private static func rerunEndedSlowly(_ context: UnsafeRawPointer, _ computation: UInt64) {
        with(context) { $0.rerunEnded(computation: computation) }
    }

    @inline(never)
    private static func rerunEndedSlowly(_ context: UnsafeRawPointer, _ computation: UInt64, _ output: UInt64) {
        with(context) { $0.rerunEnded(computation: computation, changed: output) }
    }

    @inline(never)
    private static func rerunEndedInvalidatingSlowly(_ context: UnsafeRawPointer, _ computation: UInt64,
                                                     _ output: UInt64, _ reader: UInt64) {
        with(context) { $0.rerunEnded(computation: computation, changed: output, invalidated: reader) }
    }

    @inline(never)
    private static func rerunEndedBeginningSlowly(_ context: UnsafeRawPointer, _ computation: UInt64, _ next: UInt64) {
        with(context) { recorder in recorder.withThread { $0.rerunEnded(computation: computation, beginning: next) } }
    }

    @inline(never)
    private static func rerunEndedRerunningSlowly(_ context: UnsafeRawPointer, _ computation: UInt64,
                                                  _ output: UInt64, _ reader: UInt64) {
        with(context) { $0.rerunEnded(computation: computation, changed: output, rerunning: reader) }
    }
}
