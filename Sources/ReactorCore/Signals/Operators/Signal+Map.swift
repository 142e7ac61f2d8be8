extension Signal {
    /// Sends `transform` of each value (RAC's `select`).
    @inlinable
    public func map<T>(_ transform: @escaping (Value) -> T) -> Signal<T> {
        let name = named("map")
        return Signal<T>(name: name) { observer in
            self.relay(as: name, to: observer) { observer.forward(transform($0)) }
        }
    }
}
