import ReactorCore

/// A tracer that hands every event to another tracer's protocol methods, and
/// has no encoders of its own: the core writes no event inline for it.
public final class ForwardingTracer: ReactorTracer {
    /// The tracer every event goes to.
    public let tracer: any ReactorTracer

    public init(to tracer: any ReactorTracer) { self.tracer = tracer }

    public func nodeCreated(_ id: UInt64, kind: ReactorTracing.NodeKind, name: String, parent: UInt64) {
        tracer.nodeCreated(id, kind: kind, name: name, parent: parent)
    }
    public func nodeNamed(_ id: UInt64, name: String, owner: UInt64) { tracer.nodeNamed(id, name: name, owner: owner) }
    public func nodeStopped(_ id: UInt64) { tracer.nodeStopped(id) }
    public func depend(computation: UInt64, dependency: UInt64) { tracer.depend(computation: computation, dependency: dependency) }
    public func changed(dependency: UInt64) { tracer.changed(dependency: dependency) }
    public func invalidated(computation: UInt64, cause: ReactorTracing.InvalidationCause, source: UInt64) {
        tracer.invalidated(computation: computation, cause: cause, source: source)
    }
    public func rerunBegan(computation: UInt64, firstRun: Bool) { tracer.rerunBegan(computation: computation, firstRun: firstRun) }
    public func rerunEnded(computation: UInt64) { tracer.rerunEnded(computation: computation) }
    public func actionBegan(store: UInt64, name: String, arguments: String) {
        tracer.actionBegan(store: store, name: name, arguments: arguments)
    }
    public func actionEnded(store: UInt64) { tracer.actionEnded(store: store) }
    public func flushBegan() { tracer.flushBegan() }
    public func flushEnded() { tracer.flushEnded() }
    public func issue(_ kind: ReactorTracing.IssueKind, node: UInt64, message: String) {
        tracer.issue(kind, node: node, message: message)
    }
    public func site(_ node: UInt64, site: String, isActionCall: Bool) { tracer.site(node, site: site, isActionCall: isActionCall) }
}
