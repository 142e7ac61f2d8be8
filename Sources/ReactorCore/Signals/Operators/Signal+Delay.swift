
extension Signal where Value: Sendable {
    /// Sends each value, and the completion, `interval` later on `clock`, in
    /// the order they came. An error is passed on at once and drops the
    /// values still waiting.
    ///
    /// The waits run on a task of their own, so values are sent from that
    /// task; cancelling the subscription drops what is waiting.
    public func delay<C: Clock>(for interval: C.Duration, clock: C) -> Signal<Value> {
        let name = named("delay(for: \(interval))")
        return Signal(name: name) { observer in
            let stage = SignalStage(.operator, name)
            let timer = SignalTimer(clock: clock)
            // Deadlines grow with arrival, so the queue is in deadline order.
            // Per subscriber, guarded by the graph lock; `nil` value: the completion.
            var queue: [(deadline: C.Instant, value: Value?, source: SignalStage.Cause)] = []
            var head = 0

            /// Sends what is due, then waits for the next deadline.
            func sendDue() {
                let now = clock.now
                while head < queue.count, queue[head].deadline <= now {
                    let (_, value, source) = queue[head]
                    head += 1
                    if let value {
                        stage.run(from: source) { observer.forward(value) }
                    } else {
                        observer.forwardCompleted()
                    }
                }
                if head == queue.count {
                    queue.removeAll(keepingCapacity: true)
                    head = 0
                } else {
                    timer.schedule(at: queue[head].deadline, sendDue)
                }
            }

            func enqueue(_ value: Value?, source: SignalStage.Cause) {
                queue.append((clock.now.advanced(by: interval), value, source))
                if !timer.isPending { timer.schedule(at: queue[head].deadline, sendDue) }
            }

            let upstream = self.subscribe(
                stage: stage,
                next: { value in enqueue(value, source: stage.input) },
                error: { error in
                    timer.cancel()
                    queue.removeAll()
                    head = 0
                    observer.forward(error: error)
                },
                completed: { enqueue(nil, source: .none) })
            return Subscription {
                graph.operation {
                    timer.cancel()
                    queue.removeAll()
                    head = 0
                }
                upstream.cancel()
            }
        }
    }
}
