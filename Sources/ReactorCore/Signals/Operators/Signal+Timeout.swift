
/// The error `timeout(_:clock:)` ends a signal with when no value came in time.
public struct SignalTimeoutError: Error, Equatable, Sendable {
    /// Creates the error.
    public init() {}
}

extension Signal where Value: Sendable {
    /// Passes every event on, but ends the signal if `interval` passes on
    /// `clock` without a value: from the subscription, and again from each
    /// value. It then fails with ``SignalTimeoutError``, or completes when
    /// `completing` is true, and cancels upstream.
    ///
    /// The wait runs on a task of its own, so the timeout is sent from that
    /// task; a completion, an error or cancelling the subscription cancels it.
    public func timeout<C: Clock>(_ interval: C.Duration, clock: C, completing: Bool = false) -> Signal<Value> {
        let name = named("timeout(\(interval))")
        return Signal(name: name) { observer in
            let stage = SignalStage(.operator, name)
            let timer = SignalTimer(clock: clock)

            func restart() {
                timer.schedule(at: clock.now.advanced(by: interval)) {
                    stage.run(from: .none) {
                        if completing {
                            observer.forwardCompleted()
                        } else {
                            observer.forward(error: SignalTimeoutError())
                        }
                    }
                }
            }

            restart()
            let upstream = self.subscribe(
                stage: stage,
                next: { value in
                    restart()
                    observer.forward(value)
                },
                error: { error in
                    timer.cancel()
                    observer.forward(error: error)
                },
                completed: {
                    timer.cancel()
                    observer.forwardCompleted()
                })
            return Subscription {
                graph.operation { timer.cancel() }
                upstream.cancel()
            }
        }
    }
}
