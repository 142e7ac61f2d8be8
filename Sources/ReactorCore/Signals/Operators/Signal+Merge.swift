
extension Signal {
    /// The values of all `signals` as they arrive. Completes when every one
    /// has completed; the first error ends it and cancels the others.
    public static func merge(_ signals: [Signal<Value>]) -> Signal<Value> {
        let name = "merge(" + signals.map(\.name).joined(separator: ", ") + ")"
        return Signal(name: name) { observer in
            var remaining = signals.count  // per subscriber
            guard remaining > 0 else {
                observer.forwardCompleted()
                return nil
            }
            let stage = SignalStage(.operator, name)
            var subscriptions: [Subscription] = []
            subscriptions.reserveCapacity(signals.count)
            for signal in signals {
                if observer.sink.isTerminated { break }
                subscriptions.append(signal.subscribe(
                    stage: subscriptions.isEmpty ? stage : stage.sharingNode,
                    next: { observer.forward($0) },
                    error: { observer.forward(error: $0) },
                    completed: {
                        remaining -= 1
                        if remaining == 0 { observer.forwardCompleted() }
                    }))
            }
            return Subscription(cancelling: subscriptions)
        }
    }

    /// The values of all `signals` as they arrive (see ``merge(_:)-swift.type.method``).
    public static func merge(_ signals: Signal<Value>...) -> Signal<Value> {
        merge(signals)
    }

    /// The values of this signal and of `others` as they arrive.
    public func merge(with others: Signal<Value>...) -> Signal<Value> {
        Signal.merge([self] + others)
    }
}
