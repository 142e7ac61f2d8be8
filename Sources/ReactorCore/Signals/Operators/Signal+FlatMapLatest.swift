extension Signal {
    /// Maps each value to a signal and sends the values of the latest one
    /// only: a new value cancels the previous inner signal (RAC's `switchToLatest`).
    /// Completes when this signal and the current inner one have completed;
    /// an error from either ends it.
    public func flatMapLatest<T>(_ transform: @escaping (Value) -> Signal<T>) -> Signal<T> {
        Signal<T> { observer in
            var inner: Subscription?  // per subscriber
            var innerActive = false
            var outerFinished = false
            let outer = self.subscribe(
                next: { value in
                    inner?.cancel()
                    inner = nil
                    let signal = transform(value)
                    innerActive = true
                    let subscription = signal.subscribe(
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
