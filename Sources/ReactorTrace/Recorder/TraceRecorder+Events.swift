import ReactorCore

// The ReactorTracer conformance: each event goes to the calling thread's encoder.
//
// The events of every node update (depend, changed, invalidate, rerun begin and
// end) and the other fixed-size ones take a fast path with no call in it: the
// thread's encoder, found through the thread-local, has room and a clock it can
// read inline (`recordFast`), so the event is encoded straight into the buffer.
// Otherwise a tail call to the slow path (`…Slowly`) attaches the thread, starts a
// segment or writes the thread's first time, then encodes the same bytes.
extension TraceRecorder {
    /// Records `created` (timed).
    public func nodeCreated(_ id: UInt64, kind: ReactorTracing.NodeKind, name: String, parent: UInt64) {
        withThread { $0.nodeCreated(id, kind: TraceNodeKind(kind), name: name, parent: parent) }
    }

    /// Records `named` (untimed).
    public func nodeNamed(_ id: UInt64, name: String, owner: UInt64) {
        withThread { $0.nodeNamed(id, name: name, owner: owner) }
    }

    /// Records `stopped` (timed).
    public func nodeStopped(_ id: UInt64) {
        if !recordFast(timed: true, { $0.recordNodeStopped(id, time: $0.fastTime(), at: $0.cursor) }) {
            nodeStoppedSlowly(id)
        }
    }

    @inline(never)
    private func nodeStoppedSlowly(_ id: UInt64) {
        withThread { $0.nodeStopped(id) }
    }

    /// Records `depend` (untimed, typically 3 bytes).
    public func depend(computation: UInt64, dependency: UInt64) {
        if !recordFast(timed: false, { $0.recordDepend(computation: computation, dependency: dependency, at: $0.cursor) }) {
            dependSlowly(computation: computation, dependency: dependency)
        }
    }

    @inline(never)
    private func dependSlowly(computation: UInt64, dependency: UInt64) {
        withThread { $0.depend(computation: computation, dependency: dependency) }
    }

    /// Records `changed` (untimed, typically 2 bytes).
    public func changed(dependency: UInt64) {
        if !recordFast(timed: false, { $0.recordChanged(dependency: dependency, at: $0.cursor) }) {
            changedSlowly(dependency: dependency)
        }
    }

    @inline(never)
    private func changedSlowly(dependency: UInt64) {
        withThread { $0.changed(dependency: dependency) }
    }

    /// Records `invalidate` with its cause (untimed, typically 3 bytes).
    public func invalidated(computation: UInt64, cause: ReactorTracing.InvalidationCause, source: UInt64) {
        let cause = InvalidationCause(cause)
        if !recordFast(timed: false, { $0.recordInvalidated(computation: computation, cause: cause, source: source, at: $0.cursor) }) {
            invalidatedSlowly(computation: computation, cause: cause, source: source)
        }
    }

    @inline(never)
    private func invalidatedSlowly(computation: UInt64, cause: InvalidationCause, source: UInt64) {
        withThread { $0.invalidated(computation: computation, cause: cause, source: source) }
    }

    /// Records `rerun-begin` (timed).
    public func rerunBegan(computation: UInt64, firstRun: Bool) {
        if !recordFast(timed: true, { $0.recordRerunBegan(computation: computation, firstRun: firstRun, time: $0.fastTime(), at: $0.cursor) }) {
            rerunBeganSlowly(computation: computation, firstRun: firstRun)
        }
    }

    @inline(never)
    private func rerunBeganSlowly(computation: UInt64, firstRun: Bool) {
        withThread { $0.rerunBegan(computation: computation, firstRun: firstRun) }
    }

    /// Records `rerun-end` (timed).
    public func rerunEnded(computation: UInt64) {
        if !recordFast(timed: true, { $0.recordRerunEnded(computation: computation, time: $0.fastTime(), at: $0.cursor) }) {
            rerunEndedSlowly(computation: computation)
        }
    }

    @inline(never)
    private func rerunEndedSlowly(computation: UInt64) {
        withThread { $0.rerunEnded(computation: computation) }
    }

    /// Records `rerun-end` (timed) and `changed` of `output` with one check and one publish.
    public func rerunEnded(computation: UInt64, changed output: UInt64) {
        if !recordFast(timed: true, {
            $0.recordRerunEnded(computation: computation, changed: output, time: $0.fastTime(), at: $0.cursor)
        }) {
            rerunEndedSlowly(computation: computation, changed: output)
        }
    }

    @inline(never)
    private func rerunEndedSlowly(computation: UInt64, changed output: UInt64) {
        withThread { $0.rerunEnded(computation: computation, changed: output) }
    }

    /// Records `rerun-end` (timed), `changed` of `output` and `invalidate` of
    /// `reader` (cause dependency, source `output`) with one check and one publish.
    public func rerunEnded(computation: UInt64, changed output: UInt64, invalidated reader: UInt64) {
        if !recordFast(timed: true, {
            $0.recordRerunEnded(computation: computation, changed: output, invalidated: reader, rerunning: false,
                                time: $0.fastTime(), at: $0.cursor)
        }) {
            rerunEndedSlowly(computation: computation, changed: output, invalidated: reader)
        }
    }

    @inline(never)
    private func rerunEndedSlowly(computation: UInt64, changed output: UInt64, invalidated reader: UInt64) {
        withThread { $0.rerunEnded(computation: computation, changed: output, invalidated: reader) }
    }

    /// Records `rerun-end` (timed), `changed` of `output`, `invalidate` of
    /// `reader` (cause dependency, source `output`) and `rerun-begin` of
    /// `reader` at the end's time (a delta of 0), with one clock reading, one
    /// check and one publish.
    public func rerunEnded(computation: UInt64, changed output: UInt64, rerunning reader: UInt64) {
        if !recordFast(timed: true, {
            $0.recordRerunEnded(computation: computation, changed: output, invalidated: reader, rerunning: true,
                                time: $0.fastTime(), at: $0.cursor)
        }) {
            rerunEndedSlowly(computation: computation, changed: output, rerunning: reader)
        }
    }

    @inline(never)
    private func rerunEndedSlowly(computation: UInt64, changed output: UInt64, rerunning reader: UInt64) {
        withThread { $0.rerunEnded(computation: computation, changed: output, rerunning: reader) }
    }

    /// Records `action-begin` (timed; name and arguments interned per chunk).
    public func actionBegan(store: UInt64, name: String, arguments: String) {
        withThread { $0.actionBegan(store: store, name: name, arguments: arguments) }
    }

    /// Records `action-end` (timed).
    public func actionEnded(store: UInt64) {
        if !recordFast(timed: true, { $0.recordActionEnded(store: store, time: $0.fastTime(), at: $0.cursor) }) {
            actionEndedSlowly(store: store)
        }
    }

    @inline(never)
    private func actionEndedSlowly(store: UInt64) {
        withThread { $0.actionEnded(store: store) }
    }

    /// Records `flush-begin` (timed).
    public func flushBegan() {
        flush(began: true)
    }

    /// Records `flush-end` (timed).
    public func flushEnded() {
        flush(began: false)
    }

    @inline(__always)
    func flush(began: Bool) {
        if !recordFast(timed: true, { $0.recordFlush(began: began, time: $0.fastTime(), at: $0.cursor) }) {
            flushSlowly(began: began)
        }
    }

    @inline(never)
    private func flushSlowly(began: Bool) {
        withThread { $0.flush(began: began) }
    }

    /// Records `value` (extension tag 64, untimed; descriptions interned per context).
    public func value(_ node: UInt64, description: String) {
        withThread { $0.value(node, description: description) }
    }

    /// Records `site` (extension tag 65, untimed; sites interned per context).
    public func site(_ node: UInt64, site: String, isActionCall: Bool) {
        withThread { $0.site(node, site: site, isActionCall: isActionCall) }
    }

    /// Records `issue` (timed).
    public func issue(_ kind: ReactorTracing.IssueKind, node: UInt64, message: String) {
        withThread { $0.issue(TraceIssueKind(kind), node: node, message: message) }
    }
}
