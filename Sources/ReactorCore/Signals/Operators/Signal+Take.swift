extension Signal {
    /// Sends the first `count` values, then completes and cancels upstream.
    /// `take(0)` completes at once without subscribing upstream.
    public func take(_ count: Int) -> Signal<Value> {
        let name = named("take(\(count))")
        return Signal(name: name) { observer in
            var remaining = count  // per subscriber
            guard remaining > 0 else {
                observer.forwardCompleted()
                return nil
            }
            return self.relay(as: name, to: observer) { value in
                guard remaining > 0 else { return }
                remaining -= 1
                observer.forward(value)
                if remaining == 0 { observer.forwardCompleted() }
            }
        }
    }
}
