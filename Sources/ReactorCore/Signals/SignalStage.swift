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

    private init(id: UInt64) {
        self.id = id
        ownsNode = false
    }

    /// Another input of the same node.
    var sharingNode: SignalStage { SignalStage(id: id) }

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
