
/// One subscriber's stage of an operator or a binding, as a trace node.
///
/// A stage is created when its subscriber subscribes, and only while a tracer
/// is installed (otherwise its id is 0 and nothing about it is recorded). Each
/// value it receives is one run of the node: `invalidated` (cause
/// `dependency`, source the node that sent the value, or cause `explicit`
/// when the sender is unknown), `rerunBegan`, a `changed` of the node for each
/// value it sends on, `rerunEnded`. So `why` follows a value from the subject
/// that sent it through every stage to the property a binding writes, and the
/// stages' work appears as time.
@usableFromInline
struct SignalStage {
    /// The node id, or 0 when tracing was off at subscription.
    @usableFromInline let id: UInt64
    /// False for the second input of a stage with two (`combineLatest`,
    /// `flatMapLatest`'s inner signals): only the first reports the node stopped.
    @usableFromInline let ownsNode: Bool

    /// A new stage node of `kind` named `name` (recorded if tracing is on).
    @usableFromInline
    init(_ kind: TraceNodeKind, _ name: String) {
        ownsNode = true
        guard TraceEmit.isOn else {
            id = 0
            return
        }
        let id = ReactorTracing.makeID()
        self.id = id
        withTracer { $0.nodeCreated(id, kind: kind, name: name, parent: 0) }
    }

    /// A new stage node of `kind` named `name` created by a call at
    /// `fileID`:`line`, whose site is recorded with it (if tracing is on).
    init(_ kind: TraceNodeKind, _ name: String, fileID: StaticString, line: UInt) {
        self.init(kind, name)
        guard id != 0 else { return }
        withTracer { [id] in $0.site(id, site: "\(fileID):\(line)", isActionCall: false) }
    }

    private init(id: UInt64) {
        self.id = id
        ownsNode = false
    }

    /// Another input of the same node.
    var sharingNode: SignalStage { SignalStage(id: id) }

    /// What a stage keeps of the value it handles, to send it later: the node
    /// that sent it, and whether it was a secret (traced only).
    struct Cause {
        /// The node that sent the value (0 when untraced or unknown).
        let source: UInt64
        /// The value derived from a secret: so does what the later send delivers.
        let isSecret: Bool

        /// No known sender, no secret: a timer's own event (a `timeout`).
        static let none = Cause(source: 0, isSecret: false)
    }

    /// Runs `body` (which sends values on) as a run of the stage caused by
    /// `cause`, outside the delivery of an upstream value: a time operator's
    /// timer firing. Graph lock held.
    func run(from cause: Cause, _ body: () -> Void) {
        guard TraceEmit.isOn else { return body() }
        ReactorCore.graph.delivering(secret: cause.isSecret) { run(from: cause.source, body) }
    }

    private func run(from source: UInt64, _ body: () -> Void) {
        guard id != 0 else { return body() }
        let id = id
        withTracer { tracer in
            if source != 0 {
                tracer.invalidated(computation: id, cause: .dependency, source: source)
            } else {
                tracer.invalidated(computation: id, cause: .explicit, source: 0)
            }
            tracer.rerunBegan(computation: id, firstRun: false)
        }
        ReactorCore.graph.withSignalSource(id, isStage: true, body)
        withTracer { $0.rerunEnded(computation: id) }
    }

    /// What sent the value this stage is handling now, and whether it is a
    /// secret: the cause to give ``run(from:_:)`` when it sends the value later.
    var input: Cause {
        guard TraceEmit.isOn else { return .none }
        let graph = ReactorCore.graph
        return Cause(source: id != 0 ? graph.signalInput : 0, isSecret: graph.producesSecret)
    }

    /// Records that the stage sends a value on now, for a receiver that does
    /// not record it itself (one reached across a queue). Call inside its run.
    func recordSend() {
        let id = id
        guard id != 0 else { return }
        withTracer { $0.changed(dependency: id) }
    }
}

extension Graph {
    /// Runs `body` with `source` as the node whose value is being delivered.
    /// Graph lock held; traced deliveries only.
    func withSignalSource<R>(_ source: UInt64, isStage: Bool, _ body: () throws -> R) rethrows -> R {
        let previous = signalSource
        let previousIsStage = signalSourceIsStage
        signalSource = source
        signalSourceIsStage = isStage
        defer {
            signalSource = previous
            signalSourceIsStage = previousIsStage
        }
        return try body()
    }
}
