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

    /// A signal whose `body` runs for each new subscriber and returns what to
    /// cancel when that subscription ends (or `nil`).
    public init(_ body: @escaping (Observer<Value>) -> Subscription?) {
        self.body = body
    }

    /// Subscribes: runs the body for this subscriber and delivers its events
    /// to the given closures until it terminates or the returned subscription
    /// is cancelled or released.
    public func subscribe(next: ((Value) -> Void)? = nil,
                          error: ((any Error) -> Void)? = nil,
                          completed: (() -> Void)? = nil) -> Subscription {
        let sink = SignalSink(next: next, error: error, completed: completed)
        signalDelivery {
            sink.attach(body(Observer(sink: sink)))
        }
        return Subscription { [sink] in
            graph.operation { sink.cancel() }
        }
    }
}

extension Signal {
    /// Subscribes an operator: upstream values go to `next`, terminal events
    /// straight on to `observer`. Events arrive with the graph lock held.
    @inlinable
    func relay<Output>(to observer: Observer<Output>, next: @escaping (Value) -> Void) -> Subscription {
        subscribe(next: next,
                  error: { observer.forward(error: $0) },
                  completed: { observer.forwardCompleted() })
    }
}
