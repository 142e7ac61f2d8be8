import ReactorCore

/// A test tracer that implements only the events it records: every other
/// event of ``ReactorTracer`` is ignored.
public protocol IgnoringTracer: ReactorTracer {}

extension IgnoringTracer {
    public func nodeCreated(_ id: UInt64, kind: ReactorTracing.NodeKind, name: String, parent: UInt64) {}
    public func nodeNamed(_ id: UInt64, name: String, owner: UInt64) {}
    public func nodeStopped(_ id: UInt64) {}
    public func depend(computation: UInt64, dependency: UInt64) {}
    public func changed(dependency: UInt64) {}
    public func invalidated(computation: UInt64, cause: ReactorTracing.InvalidationCause, source: UInt64) {}
    public func rerunBegan(computation: UInt64, firstRun: Bool) {}
    public func rerunEnded(computation: UInt64) {}
    public func actionBegan(store: UInt64, name: String, arguments: String) {}
    public func actionEnded(store: UInt64) {}
    public func flushBegan() {}
    public func flushEnded() {}
    public func issue(_ kind: ReactorTracing.IssueKind, node: UInt64, message: String) {}
}
