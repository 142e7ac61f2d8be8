import ReactorCore

extension TraceRecord {
    /// Hands the record to `tracer` through the hook method that records it,
    /// so a decoded trace (or a written script of records) can be recorded again.
    package func send(to tracer: any ReactorTracer) {
        switch self {
        case let .nodeCreated(id, kind, name, parent):
            tracer.nodeCreated(id, kind: ReactorTracing.NodeKind(kind), name: name, parent: parent)
        case let .nodeNamed(id, name, owner): tracer.nodeNamed(id, name: name, owner: owner)
        case let .nodeStopped(id): tracer.nodeStopped(id)
        case let .depend(computation, dependency): tracer.depend(computation: computation, dependency: dependency)
        case let .changed(dependency): tracer.changed(dependency: dependency)
        case let .invalidated(computation, cause, source):
            tracer.invalidated(computation: computation, cause: ReactorTracing.InvalidationCause(cause), source: source)
        case let .rerunBegan(computation, firstRun): tracer.rerunBegan(computation: computation, firstRun: firstRun)
        case let .rerunEnded(computation): tracer.rerunEnded(computation: computation)
        case let .actionBegan(store, name, arguments): tracer.actionBegan(store: store, name: name, arguments: arguments)
        case let .actionEnded(store): tracer.actionEnded(store: store)
        case .flushBegan: tracer.flushBegan()
        case .flushEnded: tracer.flushEnded()
        case let .issue(kind, node, message): tracer.issue(ReactorTracing.IssueKind(kind), node: node, message: message)
        case let .value(node, value): tracer.value(node, description: value)
        case let .site(node, site, isActionCall): tracer.site(node, site: site, isActionCall: isActionCall)
        }
    }
}
