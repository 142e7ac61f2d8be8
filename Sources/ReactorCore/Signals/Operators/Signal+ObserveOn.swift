
import Dispatch

extension Signal {
    /// Delivers every event asynchronously on `queue`, in the order sent when
    /// the queue is serial. Events still queued when the subscription is
    /// cancelled are dropped.
    public func observe(on queue: DispatchQueue) -> Signal<Value> {
        let name = named("observe(on: \(queue.label))")
        return Signal(name: name) { observer in
            let target = UncheckedSendable(observer)
            let stage = SignalStage(.operator, name)
            let node = stage.id
            return self.subscribe(
                stage: stage,
                next: { value in
                    // Recorded here, on the sending thread, so that the run
                    // on the queue follows from this send.
                    stage.recordSend()
                    let value = UncheckedSendable(value)
                    // A secret sent here is one there too.
                    let isSecret = stage.input.isSecret
                    queue.async { target.wrapped.send(value.wrapped, from: node, isSecret: isSecret) }
                },
                error: { error in
                    let error = UncheckedSendable(error)
                    queue.async { target.wrapped.send(error: error.wrapped) }
                },
                completed: {
                    queue.async { target.wrapped.sendCompleted() }
                })
        }
    }
}
