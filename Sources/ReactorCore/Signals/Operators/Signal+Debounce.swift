
extension Signal where Value: Sendable {
    /// Sends a value only once `interval` has passed on `clock` without a
    /// newer one: each value restarts the wait (a search box waits for the
    /// user to stop typing). On completion the value still waiting is sent at
    /// once, then the completion; an error drops it.
    ///
    /// The wait runs on a task of its own, so the value is sent from that
    /// task; cancelling the subscription cancels the wait.
    public func debounce<C: Clock>(for interval: C.Duration, clock: C) -> Signal<Value> {
        let name = named("debounce(for: \(interval))")
        return Signal(name: name) { observer in
            let stage = SignalStage(.operator, name)
            let timer = SignalTimer(clock: clock)
            var pending: Value?  // per subscriber, guarded by the graph lock
            let upstream = self.subscribe(
                stage: stage,
                next: { value in
                    pending = value
                    let source = stage.input
                    timer.schedule(at: clock.now.advanced(by: interval)) {
                        guard let value = pending else { return }
                        pending = nil
                        stage.run(from: source) { observer.forward(value) }
                    }
                },
                error: { error in
                    timer.cancel()
                    pending = nil
                    observer.forward(error: error)
                },
                completed: {
                    timer.cancel()
                    if let value = pending {
                        pending = nil
                        observer.forward(value)
                    }
                    observer.forwardCompleted()
                })
            return Subscription {
                graph.operation { timer.cancel() }
                upstream.cancel()
            }
        }
    }
}
