
extension Signal {
    /// Maps each value to a signal and sends the values of the latest one
    /// only: a new value cancels the previous inner signal (RAC's `switchToLatest`).
    /// Completes when this signal and the current inner one have completed;
    /// an error from either ends it.
    public func flatMapLatest<T>(_ transform: @escaping (Value) -> Signal<T>) -> Signal<T> {
        let name = named("flatMapLatest")
        return Signal<T>(name: name) { observer in
            // The inner signals' values are the stage's work too.
            let stage = SignalStage(.operator, name)
            var inner: Subscription?  // per subscriber
            var innerActive = false
            var outerFinished = false
            let outer = self.subscribe(
                stage: stage,
                next: { value in
                    inner?.cancel()
                    inner = nil
                    let signal = transform(value)
                    innerActive = true
                    let subscription = signal.subscribe(
                        stage: stage.sharingNode,
                        next: { observer.forward($0) },
                        error: { observer.forward(error: $0) },
                        completed: {
                            innerActive = false
                            if outerFinished { observer.forwardCompleted() }
                        })
                    if innerActive { inner = subscription }
                },
                error: { observer.forward(error: $0) },
                completed: {
                    outerFinished = true
                    if !innerActive { observer.forwardCompleted() }
                })
            return Subscription {
                outer.cancel()
                inner?.cancel()
                inner = nil
            }
        }
    }
}
