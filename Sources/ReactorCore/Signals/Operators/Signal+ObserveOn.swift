import Dispatch

extension Signal {
    /// Delivers every event asynchronously on `queue`, in the order sent when
    /// the queue is serial. Events still queued when the subscription is
    /// cancelled are dropped.
    public func observe(on queue: DispatchQueue) -> Signal<Value> {
        Signal { observer in
            let target = UncheckedSendable(observer)
            return self.subscribe(
                next: { value in
                    let value = UncheckedSendable(value)
                    queue.async { target.wrapped.send(value.wrapped) }
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
