/// What `withTracer` hands an emission site: the installed tracer's methods,
/// the node-update events through the box's ``TraceHotPaths`` (no protocol
/// witness in between), the others through the `ReactorTracer` existential.
/// The untimed node-update events of a read and an invalidation are written
/// inline through the thread's ``TraceThreadEncoder`` when it is the
/// recording's and has room; the entry point takes them otherwise, and takes
/// the timed ones (their clock reading and encoding inline at every site made
/// the engine's traced paths larger than the calls they saved), but for two
/// sites: a computed's rederive's begin and a flush rerun's end with the next
/// rerun's begin, the most frequent timed calls of a node update.
/// Same names and labels as `ReactorTracer`, so a site reads the same either way.
@usableFromInline
package struct TraceHook {
    /// Boxes are never freed (see `ReactorTracing.install(_:)`).
    @usableFromInline unowned(unsafe) let box: TracerBox

    @inlinable @inline(__always)
    init(box: TracerBox) { self.box = box }

    /// A hook on `tracer` as if it were installed, without installing it: the
    /// recorder's tests send events as the emission sites do, through the
    /// encoder inline when the thread's is the tracer's. Its box is never
    /// freed, as an installed tracer's.
    package static func detached(_ tracer: any ReactorTracer) -> TraceHook {
        TraceHook(box: Unmanaged.passRetained(TracerBox(tracer)).takeUnretainedValue())
    }

    /// The box's address: which installation of a tracer this is (boxes are
    /// never freed, so no two installations share one).
    @inlinable @inline(__always)
    var boxAddress: UnsafeMutableRawPointer { Unmanaged.passUnretained(box).toOpaque() }

    // The node-update events.

    /// Returns true (see ``TraceHotPaths/Depend``).
    @inlinable @inline(__always) @discardableResult
    package func depend(computation: UInt64, dependency: UInt64) -> Bool {
        if _fastPath(box.hot.withEncoder(timed: false, {
            $0.recordDepend(computation: computation, dependency: dependency, at: $0.cursor)
        })) {
            return true
        }
        return box.hot.depend(box.hot.context, computation, dependency)
    }

    @inlinable @inline(__always)
    package func changed(dependency: UInt64) {
        box.hot.changed(box.hot.context, dependency)
    }

    @inlinable @inline(__always)
    package func invalidated(computation: UInt64, cause: ReactorTracing.InvalidationCause, source: UInt64) {
        if _fastPath(box.hot.withEncoder(timed: false, {
            $0.recordInvalidated(computation: computation, cause: cause.traceCode, source: source, at: $0.cursor)
        })) {
            return
        }
        box.hot.invalidated(box.hot.context, computation, cause, source)
    }

    @inlinable @inline(__always)
    package func rerunBegan(computation: UInt64, firstRun: Bool) {
        box.hot.rerunBegan(box.hot.context, computation, firstRun)
    }

    /// `rerunBegan(computation:firstRun:)` written inline through the thread's
    /// encoder when it is this box's recording's (as for
    /// `rerunEnded(computation:beginning:)`): for a computed's rederive.
    @inlinable @inline(__always)
    func rerunBeganInline(computation: UInt64, firstRun: Bool) {
        if _fastPath(TraceThreadEncoder.withCurrent(installedAt: UInt(bitPattern: boxAddress), timed: true, {
            $0.recordRerunBegan(computation: computation, firstRun: firstRun, time: $0.fastTime(), at: $0.cursor)
        })) {
            return
        }
        box.hot.rerunBegan(box.hot.context, computation, firstRun)
    }

    @inlinable @inline(__always)
    package func rerunEnded(computation: UInt64) {
        box.hot.rerunEnded(box.hot.context, computation)
    }

    @inlinable @inline(__always)
    package func rerunEnded(computation: UInt64, changed output: UInt64) {
        box.hot.rerunEndedChanged(box.hot.context, computation, output)
    }

    @inlinable @inline(__always)
    package func rerunEnded(computation: UInt64, changed output: UInt64, invalidated reader: UInt64) {
        box.hot.rerunEndedInvalidating(box.hot.context, computation, output, reader)
    }

    @inlinable @inline(__always)
    package func rerunEnded(computation: UInt64, changed output: UInt64, rerunning reader: UInt64) {
        box.hot.rerunEndedRerunning(box.hot.context, computation, output, reader)
    }

    /// The end of this run and the begin of `next`'s rerun (not its first
    /// run) at the same time, the two runs meeting with no user code and no
    /// other event between them: a tracer that provides its own entry points
    /// reads its clock once; any other gets `rerunEnded(computation:)` and
    /// `rerunBegan(computation:firstRun:)`.
    ///
    /// Written inline through the thread's encoder when it is this box's
    /// recording's, as noted by ``TraceEmit``'s events: the one timed event
    /// the core writes itself (at one site, a flush's rerun's end, where it
    /// saves the most calls for the least code).
    @inlinable @inline(__always)
    package func rerunEnded(computation: UInt64, beginning next: UInt64) {
        if _fastPath(TraceThreadEncoder.withCurrent(installedAt: UInt(bitPattern: boxAddress), timed: true, {
            $0.recordRerunEnded(computation: computation, beginning: next, time: $0.fastTime(), at: $0.cursor)
        })) {
            return
        }
        box.hot.rerunEndedBeginning(box.hot.context, computation, next)
    }

    // The rest: through the protocol.

    @inlinable @inline(__always)
    package func nodeCreated(_ id: UInt64, kind: ReactorTracing.NodeKind, name: String, parent: UInt64) {
        box.tracer.nodeCreated(id, kind: kind, name: name, parent: parent)
    }

    @inlinable @inline(__always)
    package func nodeNamed(_ id: UInt64, name: String, owner: UInt64) {
        box.tracer.nodeNamed(id, name: name, owner: owner)
    }

    @inlinable @inline(__always)
    package func nodeStopped(_ id: UInt64) {
        box.tracer.nodeStopped(id)
    }

    @inlinable @inline(__always)
    package func actionEnded(store: UInt64) {
        box.tracer.actionEnded(store: store)
    }

    @inlinable @inline(__always)
    package func flushBegan() {
        box.tracer.flushBegan()
    }

    @inlinable @inline(__always)
    package func flushEnded() {
        box.tracer.flushEnded()
    }

    @inlinable @inline(__always)
    package func issue(_ kind: ReactorTracing.IssueKind, node: UInt64, message: String) {
        box.tracer.issue(kind, node: node, message: message)
    }

    @inlinable @inline(__always)
    package func site(_ node: UInt64, site: String, isActionCall: Bool) {
        box.tracer.site(node, site: site, isActionCall: isActionCall)
    }
}
