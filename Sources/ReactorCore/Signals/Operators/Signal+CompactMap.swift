extension Signal {
    /// Sends `transform` of each value, skipping the values it maps to `nil`.
    @inlinable
    public func compactMap<T>(_ transform: @escaping (Value) -> T?) -> Signal<T> {
        let name = named("compactMap")
        return Signal<T>(name: name) { observer in
            self.relay(as: name, to: observer) { value in
                if let transformed = transform(value) { observer.forward(transformed) }
            }
        }
    }
}
