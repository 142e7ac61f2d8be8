
extension Signal where Value: Sendable {
    /// Sends at most one value per `interval` on `clock`: a value arriving
    /// when no window is open is sent at once and opens a window; of the
    /// values arriving during the window, the latest (`latest: true`) or the
    /// first (`latest: false`) is sent when it closes, opening the next one.
    /// On completion a value still held is sent at once, then the completion;
    /// an error drops it.
    ///
    /// The window's end runs on a task of its own, so a held value is sent
    /// from that task; cancelling the subscription cancels it.
    public func throttle<C: Clock>(for interval: C.Duration, clock: C, latest: Bool) -> Signal<Value> {
        let name = named("throttle(for: \(interval), latest: \(latest))")
        return Signal(name: name) { observer in
            let stage = SignalStage(.operator, name)
            let timer = SignalTimer(clock: clock)
            var held: (value: Value, source: SignalStage.Cause)?  // per subscriber, guarded by the graph lock

            /// Opens a window; when it closes, sends the held value and opens the next.
            func openWindow() {
                timer.schedule(at: clock.now.advanced(by: interval)) {
                    guard let (value, source) = held else { return }
                    held = nil
                    stage.run(from: source) { observer.forward(value) }
                    openWindow()
                }
            }

            let upstream = self.subscribe(
                stage: stage,
                next: { value in
                    if !timer.isPending {
                        observer.forward(value)
                        openWindow()
                    } else if latest || held == nil {
                        held = (value, stage.input)
                    }
                },
                error: { error in
                    timer.cancel()
                    held = nil
                    observer.forward(error: error)
                },
                completed: {
                    timer.cancel()
                    if let (value, _) = held {
                        held = nil
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
