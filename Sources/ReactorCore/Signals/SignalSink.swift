/// The receiving end of one subscription: the subscriber's closures and the
/// subscription upstream of it.
///
/// Internal storage: `@unchecked Sendable` because every field is read and
/// written with the graph lock held (every delivery, subscribe and cancel
/// takes it), which is also what keeps deliveries to one subscriber from
/// interleaving when several threads send.
///
/// The handlers are held as one manually retained object so that a delivery
/// calls them without retaining and releasing the closures' contexts (the hot
/// path of every stage of a pipeline). Terminating a sink while one of its
/// handlers is running (a `take` completing, a subscriber cancelling itself)
/// defers that release until the outermost delivery returns.
@usableFromInline
final class SignalSink<Value>: @unchecked Sendable {
    /// Nil once terminated: a value sent after that is dropped. Owned (+1).
    @usableFromInline @exclusivity(unchecked) var handlers: Unmanaged<SignalHandlers<Value>>?
    /// Handlers detached while a delivery was running; released when it ends. Owned (+1).
    @usableFromInline @exclusivity(unchecked) var retiredHandlers: Unmanaged<SignalHandlers<Value>>?
    /// Deliveries to this sink on the stack.
    @usableFromInline @exclusivity(unchecked) var deliveries = 0
    /// True after an error, a completion or a cancel.
    @usableFromInline @exclusivity(unchecked) var isTerminated = false
    /// What this sink subscribed to; released when it terminates.
    @usableFromInline @exclusivity(unchecked) var upstream: Subscription?
    /// The stage node this sink feeds (see ``SignalStage``), or 0: a
    /// subscriber's own closures, or a stage subscribed while untraced.
    @usableFromInline let traceNode: UInt64
    /// False when another sink of the stage reports the node stopped.
    let ownsTraceNode: Bool

    @usableFromInline
    init(stage: SignalStage?, next: ((Value) -> Void)?, error: ((any Error) -> Void)?, completed: (() -> Void)?) {
        traceNode = stage?.id ?? 0
        ownsTraceNode = stage?.ownsNode ?? false
        handlers = .passRetained(SignalHandlers(next: next, error: error, completed: completed))
    }

    deinit {
        handlers?.release()
        retiredHandlers?.release()
    }

    /// Delivers a value. Graph lock held.
    @inlinable @inline(__always)
    func receive(_ value: Value) {
        guard let handlers else { return }
        deliveries += 1
        // Only a stage's sink checks for a tracer (one field, then one load):
        // a subscriber's own closures cost nothing more than untraced.
        if _slowPath(traceNode != 0) && TraceEmit.isOn {
            receiveTraced(value, handlers)
        } else {
            handlers._withUnsafeGuaranteedRef { $0.next?(value) }
        }
        deliveries -= 1
        if deliveries == 0, let retired = retiredHandlers {
            retiredHandlers = nil
            retired.release()
        }
    }

    /// `receive` of a stage's sink while tracing: records the sender's
    /// `changed` if it is a stage, and this stage's run (see ``SignalStage``).
    /// Graph lock held.
    @usableFromInline @inline(never)
    func receiveTraced(_ value: Value, _ handlers: Unmanaged<SignalHandlers<Value>>) {
        let graph = ReactorCore.graph
        let source = graph.signalSource
        let node = traceNode
        withTracer { tracer in
            if graph.signalSourceIsStage { tracer.changed(dependency: source) }
            if source != 0 {
                tracer.invalidated(computation: node, cause: .dependency, source: source)
            } else {
                tracer.invalidated(computation: node, cause: .explicit, source: 0)
            }
            tracer.rerunBegan(computation: node, firstRun: false)
        }
        let input = graph.signalInput
        graph.signalInput = source
        graph.withSignalSource(node, isStage: true) {
            handlers._withUnsafeGuaranteedRef { $0.next?(value) }
        }
        graph.signalInput = input
        withTracer { $0.rerunEnded(computation: node) }
    }

    /// Delivers the error, then releases the closures and cancels upstream. Graph lock held.
    @usableFromInline
    func receive(error: any Error) {
        guard !isTerminated, let (handlers, upstream) = terminate() else { return }
        handlers?._withUnsafeGuaranteedRef { $0.error?(error) }
        finishTerminal(handlers, upstream)
    }

    /// Delivers the completion, then releases the closures and cancels upstream. Graph lock held.
    @usableFromInline
    func receiveCompleted() {
        guard !isTerminated, let (handlers, upstream) = terminate() else { return }
        handlers?._withUnsafeGuaranteedRef { $0.completed?() }
        finishTerminal(handlers, upstream)
    }

    /// Stops deliveries and cancels upstream (the subscriber cancelled). Graph lock held.
    func cancel() {
        guard !isTerminated, let (handlers, upstream) = terminate() else { return }
        finishTerminal(handlers, upstream)
    }

    /// Records the subscription the signal's body returned, or cancels it at
    /// once if this sink already terminated while the body ran. Graph lock held.
    func attach(_ subscription: Subscription?) {
        if isTerminated {
            subscription?.cancel()
        } else {
            upstream = subscription
        }
    }

    /// Marks the sink terminated and detaches its handlers and upstream for
    /// the caller, counting the terminal delivery about to run.
    private func terminate() -> (Unmanaged<SignalHandlers<Value>>?, Subscription?)? {
        isTerminated = true
        if ownsTraceNode && traceNode != 0 {
            let node = traceNode
            withTracer { $0.nodeStopped(node) }
        }
        let detached = handlers
        handlers = nil
        let upstream = self.upstream
        self.upstream = nil
        deliveries += 1
        return (detached, upstream)
    }

    /// Ends a terminal delivery: releases the handlers (now, or when the
    /// outermost delivery returns) and cancels upstream.
    private func finishTerminal(_ detached: Unmanaged<SignalHandlers<Value>>?, _ upstream: Subscription?) {
        deliveries -= 1
        if let detached {
            if deliveries == 0 {
                detached.release()
            } else {
                retiredHandlers = detached
            }
        }
        if deliveries == 0, let retired = retiredHandlers {
            retiredHandlers = nil
            retired.release()
        }
        upstream?.cancel()
    }
}

/// A subscriber's three closures, immutable so a delivery can call them
/// through a borrowed reference.
@usableFromInline
final class SignalHandlers<Value> {
    @usableFromInline let next: ((Value) -> Void)?
    @usableFromInline let error: ((any Error) -> Void)?
    @usableFromInline let completed: (() -> Void)?

    init(next: ((Value) -> Void)?, error: ((any Error) -> Void)?, completed: (() -> Void)?) {
        self.next = next
        self.error = error
        self.completed = completed
    }
}
