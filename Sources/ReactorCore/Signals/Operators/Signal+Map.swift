extension Signal {
    /// Sends `transform` of each value (RAC's `select`).
    @inlinable
    public func map<T>(_ transform: @escaping (Value) -> T) -> Signal<T> {
        Signal<T> { observer in
            self.relay(to: observer) { observer.forward(transform($0)) }
        }
    }
}
