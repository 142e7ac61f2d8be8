extension Signal {
    /// Drops each value equal to the one sent just before it.
    @inlinable
    public func distinctUntilChanged() -> Signal<Value> where Value: Equatable {
        distinctUntilChanged(by: ==)
    }

    /// Drops each value that `isEqual` says equals the one sent just before it.
    @inlinable
    public func distinctUntilChanged(by isEqual: @escaping (Value, Value) -> Bool) -> Signal<Value> {
        let name = named("distinctUntilChanged")
        return Signal(name: name) { observer in
            var previous: Value?  // per subscriber
            return self.relay(as: name, to: observer) { value in
                if let previous, isEqual(previous, value) { return }
                previous = value
                observer.forward(value)
            }
        }
    }
}
