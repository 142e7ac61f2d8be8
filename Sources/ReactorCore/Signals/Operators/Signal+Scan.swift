extension Signal {
    /// Sends each step of a running accumulation: `next(accumulated, value)`,
    /// starting from `initial` (which is not sent).
    public func scan<Result>(_ initial: Result,
                             _ next: @escaping (Result, Value) -> Result) -> Signal<Result> {
        let name = named("scan")
        return Signal<Result>(name: name) { observer in
            var accumulated = initial  // per subscriber
            return self.relay(as: name, to: observer) { value in
                accumulated = next(accumulated, value)
                observer.forward(accumulated)
            }
        }
    }
}
