import CReactorCoreThread

/// The tracer's entry points for the events of every node update (`depend`,
/// `changed`, `invalidated`, the run's begin and its ends), as plain function
/// pointers with the tracer's context as first argument.
///
/// The core calls the installed tracer's hot events through these rather than
/// through the `ReactorTracer` existential: a call through a protocol witness
/// loads the tracer's type and goes through a witness thunk (its own frame and
/// a jump) before the tracer's method, about five instructions of every event.
/// A tracer that provides its own (`TraceHotPathProvider`, the package's
/// recorder) is called directly; any other tracer gets ``forwarding(to:)``,
/// which calls its protocol methods, so it sees exactly the same calls.
// `@usableFromInline`: `TraceHook`'s inlinable calls load these fields.
@usableFromInline
package struct TraceHotPaths: @unchecked Sendable {
    /// Returns true, always: a traced read's link returns the call's result,
    /// so that the call is its last instruction (a jump, not a call and a return).
    @usableFromInline package typealias Depend = @convention(thin) (UnsafeRawPointer, UInt64, UInt64) -> Bool
    @usableFromInline package typealias Changed = @convention(thin) (UnsafeRawPointer, UInt64) -> Void
    @usableFromInline package typealias Invalidated =
        @convention(thin) (UnsafeRawPointer, UInt64, ReactorTracing.InvalidationCause, UInt64) -> Void
    @usableFromInline package typealias RerunBegan = @convention(thin) (UnsafeRawPointer, UInt64, Bool) -> Void
    @usableFromInline package typealias RerunEnded = @convention(thin) (UnsafeRawPointer, UInt64) -> Void
    @usableFromInline package typealias RerunEndedChanged = @convention(thin) (UnsafeRawPointer, UInt64, UInt64) -> Void
    @usableFromInline package typealias RerunEndedChangedReader = @convention(thin) (UnsafeRawPointer, UInt64, UInt64, UInt64) -> Void

    /// The first argument of every entry point: the tracer itself, unretained
    /// (the box that holds these keeps the tracer alive).
    @usableFromInline package let context: UnsafeRawPointer
    /// The recording whose thread encoders (``TraceThreadEncoder``) the core
    /// writes these events through itself, inline, when the calling thread's
    /// is one of them (``withEncoder(timed:_:)``); 0 for a tracer without
    /// encoders, whose entry points take every event.
    @usableFromInline package let recording: UInt64
    @usableFromInline package let depend: Depend
    @usableFromInline package let changed: Changed
    @usableFromInline package let invalidated: Invalidated
    @usableFromInline package let rerunBegan: RerunBegan
    @usableFromInline package let rerunEnded: RerunEnded
    /// `rerunEnded(computation:changed:)`.
    @usableFromInline package let rerunEndedChanged: RerunEndedChanged
    /// `rerunEnded(computation:changed:invalidated:)`.
    @usableFromInline package let rerunEndedInvalidating: RerunEndedChangedReader
    /// `rerunEnded(computation:changed:rerunning:)`.
    @usableFromInline package let rerunEndedRerunning: RerunEndedChangedReader
    /// `rerunEnded(computation:)` then `rerunBegan(computation: next, firstRun:
    /// false)` at the end's time: a flush's next rerun, which begins with no
    /// user code and no other event after the end (`TraceHook.rerunEnded(computation:beginning:)`).
    @usableFromInline package let rerunEndedBeginning: RerunEndedChanged

    package init(context: UnsafeRawPointer, recording: UInt64 = 0, depend: Depend, changed: Changed, invalidated: Invalidated,
                 rerunBegan: RerunBegan, rerunEnded: RerunEnded, rerunEndedChanged: RerunEndedChanged,
                 rerunEndedInvalidating: RerunEndedChangedReader, rerunEndedRerunning: RerunEndedChangedReader,
                 rerunEndedBeginning: RerunEndedChanged) {
        self.context = context
        self.recording = recording
        self.depend = depend
        self.changed = changed
        self.invalidated = invalidated
        self.rerunBegan = rerunBegan
        self.rerunEnded = rerunEnded
        self.rerunEndedChanged = rerunEndedChanged
        self.rerunEndedInvalidating = rerunEndedInvalidating
        self.rerunEndedRerunning = rerunEndedRerunning
        self.rerunEndedBeginning = rerunEndedBeginning
    }

    /// Runs `body` with the calling thread's encoder and returns true when a
    /// fixed-size event can be written inline: the thread's encoder is this
    /// recording's, it has room for ``TraceThreadEncoder/fixedBound`` bytes
    /// and a time, and (`timed`) reads the cycle counter. Else returns false,
    /// having done nothing: the caller calls the entry point, which takes the
    /// event in full. A recording's id is never 0 and never reused, so an
    /// encoder of an ended recording, or a tracer without encoders, never passes.
    @inlinable @inline(__always)
    func withEncoder(timed: Bool, _ body: (TraceThreadEncoder) -> Void) -> Bool {
        TraceThreadEncoder.withCurrent(of: recording, timed: timed, body)
    }

    /// Entry points that call `tracer`'s protocol methods; `holder` keeps
    /// the tracer and is the context, so it must live as long as these do.
    static func forwarding(to holder: TracerHolder) -> TraceHotPaths {
        TraceHotPaths(
            context: UnsafeRawPointer(Unmanaged.passUnretained(holder).toOpaque()),
            depend: { context, computation, dependency in
                TracerHolder.with(context) { $0.depend(computation: computation, dependency: dependency) }
                return true
            },
            changed: { context, dependency in TracerHolder.with(context) { $0.changed(dependency: dependency) } },
            invalidated: { context, computation, cause, source in
                TracerHolder.with(context) { $0.invalidated(computation: computation, cause: cause, source: source) }
            },
            rerunBegan: { context, computation, firstRun in
                TracerHolder.with(context) { $0.rerunBegan(computation: computation, firstRun: firstRun) }
            },
            rerunEnded: { context, computation in TracerHolder.with(context) { $0.rerunEnded(computation: computation) } },
            rerunEndedChanged: { context, computation, output in
                TracerHolder.with(context) { $0.rerunEnded(computation: computation, changed: output) }
            },
            rerunEndedInvalidating: { context, computation, output, reader in
                TracerHolder.with(context) { $0.rerunEnded(computation: computation, changed: output, invalidated: reader) }
            },
            rerunEndedRerunning: { context, computation, output, reader in
                TracerHolder.with(context) { $0.rerunEnded(computation: computation, changed: output, rerunning: reader) }
            },
            rerunEndedBeginning: { context, computation, next in
                TracerHolder.with(context) { tracer in
                    tracer.rerunEnded(computation: computation)
                    tracer.rerunBegan(computation: next, firstRun: false)
                }
            })
    }
}

/// A tracer that gives the core its own hot entry points (``TraceHotPaths``)
/// instead of having its protocol methods called for those events. They must
/// record exactly what the protocol methods would.
package protocol TraceHotPathProvider: ReactorTracer {
    /// The entry points, with this tracer (unretained) as their context.
    var hotPaths: TraceHotPaths { get }
}

/// The context of ``TraceHotPaths/forwarding(to:)``: the tracer, in an object
/// one pointer can name.
final class TracerHolder: Sendable {
    let tracer: any ReactorTracer
    init(_ tracer: any ReactorTracer) { self.tracer = tracer }

    /// Runs `body` with the tracer of the holder at `context`, borrowed.
    @inline(__always)
    static func with(_ context: UnsafeRawPointer, _ body: (any ReactorTracer) -> Void) {
        Unmanaged<TracerHolder>.fromOpaque(context)._withUnsafeGuaranteedRef { body($0.tracer) }
    }
}
