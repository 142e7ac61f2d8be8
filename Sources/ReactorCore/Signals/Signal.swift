
/// A cold stream of values, ended by at most one error or completion
/// (ReactiveCocoa's subscribable, in today's names).
///
/// The body runs once per subscriber, when it subscribes, and sends that
/// subscriber its own events; the subscription it returns is cancelled when
/// the subscriber's subscription is cancelled or the stream terminates:
///
/// ```swift
/// let helloWorld = Signal<String> { observer in
///     observer.send("Hello, ")
///     observer.send("world!")
///     observer.sendCompleted()
///     return nil
/// }
/// ```
///
/// Subscribers run with the graph lock held, outside any computation: do not
/// block them waiting for another thread that uses the reactive graph.
public struct Signal<Value> {
    @usableFromInline let body: (Observer<Value>) -> Subscription?
    /// What traces call this signal's source; operators built on it are named
    /// after it (`Profile.username.distinctUntilChanged.take(3)`).
    @usableFromInline let name: String

    /// A signal whose `body` runs for each new subscriber and returns what to
    /// cancel when that subscription ends (or `nil`).
    public init(_ body: @escaping (Observer<Value>) -> Subscription?) {
        self.init(name: "signal", body)
    }

    /// A signal named `name`: the stages of the operators built on it appear
    /// in traces under names that start with it.
    public init(name: String, _ body: @escaping (Observer<Value>) -> Subscription?) {
        self.body = body
        self.name = name
    }

    /// Subscribes: runs the body for this subscriber and delivers its events
    /// to the given closures until it terminates or the returned subscription
    /// is cancelled or released.
    public func subscribe(next: ((Value) -> Void)? = nil,
                          error: ((any Error) -> Void)? = nil,
                          completed: (() -> Void)? = nil) -> Subscription {
        subscribe(stage: nil, next: next, error: error, completed: completed)
    }

    /// Subscribes the input of `stage` (an operator's or a binding's), or a
    /// subscriber's own closures when `stage` is nil.
    @usableFromInline
    func subscribe(stage: SignalStage?, next: ((Value) -> Void)?, error: ((any Error) -> Void)?,
                   completed: (() -> Void)?) -> Subscription {
        let sink = SignalSink(stage: stage, next: next, error: error, completed: completed)
        signalDelivery {
            if _slowPath(TraceEmit.isOn) {
                // What the body sends now is caused by the subscriber, not by
                // the value being delivered around it (a `flatMapLatest`'s).
                ReactorCore.graph.withSignalSource(0, isStage: false) { sink.attach(body(Observer(sink: sink))) }
            } else {
                sink.attach(body(Observer(sink: sink)))
            }
        }
        return Subscription { [sink] in
            graph.operation { sink.cancel() }
        }
    }
}

extension Signal {
    /// The name of the operator `operatorName` applied to this signal.
    @inlinable
    func named(_ operatorName: String) -> String {
        name + "." + operatorName
    }

    /// Subscribes an operator's stage named `stageName`: upstream values go
    /// to `next`, terminal events straight on to `observer`. Events arrive
    /// with the graph lock held.
    @inlinable
    func relay<Output>(as stageName: String, to observer: Observer<Output>,
                       next: @escaping (Value) -> Void) -> Subscription {
        subscribe(stage: SignalStage(.operator, stageName),
                  next: next,
                  error: { observer.forward(error: $0) },
                  completed: { observer.forwardCompleted() })
    }
}
