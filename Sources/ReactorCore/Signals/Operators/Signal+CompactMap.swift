extension Signal {
    /// Sends `transform` of each value, skipping the values it maps to `nil`.
    @inlinable
    public func compactMap<T>(_ transform: @escaping (Value) -> T?) -> Signal<T> {
        Signal<T> { observer in
            self.relay(to: observer) { value in
                if let transformed = transform(value) { observer.forward(transformed) }
            }
        }
    }
}
