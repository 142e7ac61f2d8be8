extension Signal {
    /// Sends `values` first, then this signal's events.
    public func startWith(_ values: Value...) -> Signal<Value> {
        startWith(contentsOf: values)
    }

    /// Sends the elements of `values` first, then this signal's events.
    public func startWith(contentsOf values: [Value]) -> Signal<Value> {
        let name = named("startWith")
        return Signal(name: name) { observer in
            for value in values {
                if observer.sink.isTerminated { return nil }
                observer.forward(value)
            }
            if observer.sink.isTerminated { return nil }
            return self.relay(as: name, to: observer) { observer.forward($0) }
        }
    }
}
