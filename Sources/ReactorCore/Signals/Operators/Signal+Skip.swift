extension Signal {
    /// Drops the first `count` values and sends the rest.
    public func skip(_ count: Int) -> Signal<Value> {
        let name = named("skip(\(count))")
        return Signal(name: name) { observer in
            var remaining = count  // per subscriber
            return self.relay(as: name, to: observer) { value in
                if remaining > 0 {
                    remaining -= 1
                } else {
                    observer.forward(value)
                }
            }
        }
    }
}
