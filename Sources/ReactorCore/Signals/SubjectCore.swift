
/// The state every hot source shares (subjects and `ReactiveProperty`): its
/// trace node, its dependency, its subscribers and how it ended.
///
/// Internal storage: `@unchecked Sendable` because every field is read and
/// written with the graph lock held.
@usableFromInline
final class SubjectCore<Value>: @unchecked Sendable {
    /// How a subject ended.
    @usableFromInline
    enum Terminal {
        case completed
        case failed(any Error)
    }

    /// The node id, shared by the dependency so writes appear as `changed` of this node.
    @usableFromInline let id: UInt64
    @usableFromInline let name: String
    /// What computations reading the source depend on.
    @usableFromInline let dependency: Dependency
    @usableFromInline @exclusivity(unchecked) var sinks: ContiguousArray<SignalSink<Value>> = []
    @usableFromInline @exclusivity(unchecked) var terminal: Terminal?
    @usableFromInline @exclusivity(unchecked) var isTerminated = false
    /// Traces write the source's values as `‹redacted›`.
    @usableFromInline let isRedacted: Bool
    /// Traced only: a value it sent was a secret (a replay of its buffer may hold one).
    @usableFromInline @exclusivity(unchecked) var hasSentSecret = false

    /// A source with no value until its first send.
    init(kind: TraceNodeKind, name: String, redacted: Bool = false) {
        id = ReactorTracing.makeID()
        self.name = name
        isRedacted = redacted
        dependency = Dependency(id: id, name: name)
        dependency.isSecret = redacted
        withTracer { $0.nodeCreated(id, kind: kind, name: name, parent: 0) }
    }

    /// A source holding `initialValue` from the start (recorded as its first value).
    init(kind: TraceNodeKind, name: String, initialValue: Value, redacted: Bool = false) {
        id = ReactorTracing.makeID()
        self.name = name
        isRedacted = redacted
        dependency = Dependency(id: id, name: name)
        dependency.isSecret = redacted
        withTracerAndValueLimit { [id, dependency] tracer, limit in
            tracer.nodeCreated(id, kind: kind, name: name, parent: 0)
            guard limit > 0 else { return }
            // Made by a run that read a secret: a secret from the start.
            if dependency.graph.producesSecretOnThisThread { dependency.isSecret = true }
            TraceValueText.record(initialValue, node: id, redacted: dependency.isSecret, limit: limit, to: tracer)
        }
    }

    deinit {
        withTracer { $0.nodeStopped(id) }
    }

    /// Records a write and sends `value` to every current subscriber.
    /// Graph lock held, nonreactive.
    @inlinable
    func deliver(_ value: Value) {
        if _slowPath(TraceEmit.isOn) { return deliverTraced(value) }
        if dependency.subscribers.head != nil { dependency.notifySubscribers() }
        send(value)
    }

    /// `deliver` while tracing: the write is a `changed` of this node, and the
    /// stages it reaches record this node as what sent the value.
    ///
    /// The value is a secret if the source is marked, or if it is sent by a
    /// run that read one (or, `derivedFromSecret`, was held since such a
    /// send): recorded as such, and what its delivery writes and sends too.
    @usableFromInline @inline(never)
    func deliverTraced(_ value: Value, derivedFromSecret: Bool = false) {
        let graph = ReactorCore.graph
        let secret = isRedacted || derivedFromSecret || graph.producesSecret
        dependency.isSecret = secret
        if secret { hasSentSecret = true }
        withTracerAndValueLimit { tracer, limit in
            if limit > 0 { TraceValueText.record(value, node: id, redacted: secret, limit: limit, to: tracer) }
            tracer.changed(dependency: id)
        }
        if dependency.subscribers.head != nil { dependency.notifySubscribers() }
        graph.withSignalSource(id, isStage: false) { graph.delivering(secret: secret) { send(value) } }
    }

    /// Records `value`, held to be sent later (an `AsyncSubject`'s): a secret
    /// as for `deliverTraced`, and a `changed` of this node. Traced only.
    @usableFromInline @inline(never)
    func recordHeld(_ value: Value) {
        let secret = isRedacted || ReactorCore.graph.producesSecret
        dependency.isSecret = secret
        withTracerAndValueLimit { tracer, limit in
            if limit > 0 { TraceValueText.record(value, node: id, redacted: secret, limit: limit, to: tracer) }
            tracer.changed(dependency: id)
        }
    }

    /// Runs `body`, which hands a new subscriber the value(s) the source
    /// holds: secrets if one of them may be (traced only). Lock held.
    @usableFromInline
    func replaying(holdingSecret: Bool, _ body: () -> Void) {
        guard TraceEmit.isOn else { return body() }
        ReactorCore.graph.delivering(secret: isRedacted || holdingSecret, body)
    }

    @inlinable @inline(__always)
    func send(_ value: Value) {
        // A snapshot: subscribers may cancel or subscribe while being told.
        // Copying the array only retains its buffer.
        let snapshot = sinks
        for index in snapshot.indices {
            // The snapshot keeps every sink alive: no retain per subscriber.
            Unmanaged.passUnretained(snapshot[index])._withUnsafeGuaranteedRef { $0.receive(value) }
        }
    }

    /// Ends the source: tells every subscriber and lets them go. Graph lock held.
    func finish(_ terminal: Terminal) {
        guard !isTerminated else { return }
        isTerminated = true
        self.terminal = terminal
        withTracer { $0.changed(dependency: id) }
        if dependency.subscribers.head != nil { dependency.notifySubscribers() }
        let snapshot = sinks
        sinks = []
        for sink in snapshot {
            Self.send(terminal, to: sink)
        }
    }

    /// Sends a terminal event to one sink. Graph lock held.
    static func send(_ terminal: Terminal, to sink: SignalSink<Value>) {
        switch terminal {
        case .completed: sink.receiveCompleted()
        case let .failed(error): sink.receive(error: error)
        }
    }

    /// Adds a subscriber; the returned subscription removes it. A source that
    /// already ended sends its terminal event instead. Graph lock held.
    func register(_ observer: Observer<Value>) -> Subscription? {
        let sink = observer.sink
        if let terminal {
            Self.send(terminal, to: sink)
            return nil
        }
        if sink.isTerminated { return nil }
        sinks.append(sink)
        let subscriptionID = ReactorTracing.makeID()
        let stage = sink.traceNode
        withTracer { tracer in
            tracer.nodeCreated(subscriptionID, kind: .subscription, name: "\(name) subscriber", parent: id)
            // The pipeline's first edge, drawn before any value flows.
            if stage != 0 { tracer.depend(computation: stage, dependency: id) }
        }
        return Subscription { [self] in
            graph.operation {
                remove(sink)
                withTracer { $0.nodeStopped(subscriptionID) }
            }
        }
    }

    private func remove(_ sink: SignalSink<Value>) {
        if let index = sinks.firstIndex(where: { $0 === sink }) {
            sinks.remove(at: index)
        }
    }

    /// The number of current subscribers.
    var subscriberCount: Int {
        graph.lock.withLock { sinks.count }
    }
}
