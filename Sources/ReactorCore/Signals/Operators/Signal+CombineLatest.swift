
extension Signal {
    /// Once both signals have sent a value, sends the pair of their latest
    /// values each time either sends. Completes when both have completed, or
    /// as soon as one completes without ever sending (no pair can follow);
    /// the first error ends it.
    public func combineLatest<Other>(_ other: Signal<Other>) -> Signal<(Value, Other)> {
        let name = named("combineLatest(\(other.name))")
        return Signal<(Value, Other)>(name: name) { observer in
            let stage = SignalStage(.operator, name)
            var latest: Value?  // per subscriber
            var otherLatest: Other?
            var finished = false
            var otherFinished = false
            let first = self.subscribe(
                stage: stage,
                next: { value in
                    latest = value
                    if let otherLatest { observer.forward((value, otherLatest)) }
                },
                error: { observer.forward(error: $0) },
                completed: {
                    finished = true
                    if otherFinished || latest == nil { observer.forwardCompleted() }
                })
            if observer.sink.isTerminated { return first }
            let second = other.subscribe(
                stage: stage.sharingNode,
                next: { value in
                    otherLatest = value
                    if let latest { observer.forward((latest, value)) }
                },
                error: { observer.forward(error: $0) },
                completed: {
                    otherFinished = true
                    if finished || otherLatest == nil { observer.forwardCompleted() }
                })
            return Subscription(cancelling: [first, second])
        }
    }
}
