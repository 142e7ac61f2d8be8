import ReactorCore

// The ReactorTracer conformance: each event goes to the calling thread's encoder.
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
        withThread { $0.nodeStopped(id) }
    }

    /// Records `depend` (untimed, typically 3 bytes).
    public func depend(computation: UInt64, dependency: UInt64) {
        withThread { $0.depend(computation: computation, dependency: dependency) }
    }

    /// Records `changed` (untimed, typically 2 bytes).
    public func changed(dependency: UInt64) {
        withThread { $0.changed(dependency: dependency) }
    }

    /// Records `invalidate` with its cause (untimed, typically 3 bytes).
    public func invalidated(computation: UInt64, cause: ReactorTracing.InvalidationCause, source: UInt64) {
        withThread { $0.invalidated(computation: computation, cause: InvalidationCause(cause), source: source) }
    }

    /// Records `rerun-begin` (timed).
    public func rerunBegan(computation: UInt64, firstRun: Bool) {
        withThread { $0.rerunBegan(computation: computation, firstRun: firstRun) }
    }

    /// Records `rerun-end` (timed).
    public func rerunEnded(computation: UInt64) {
        withThread { $0.rerunEnded(computation: computation) }
    }

    /// Records `action-begin` (timed; name and arguments interned per chunk).
    public func actionBegan(store: UInt64, name: String, arguments: String) {
        withThread { $0.actionBegan(store: store, name: name, arguments: arguments) }
    }

    /// Records `action-end` (timed).
    public func actionEnded(store: UInt64) {
        withThread { $0.actionEnded(store: store) }
    }

    /// Records `flush-begin` (timed).
    public func flushBegan() {
        withThread { $0.flush(began: true) }
    }

    /// Records `flush-end` (timed).
    public func flushEnded() {
        withThread { $0.flush(began: false) }
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
