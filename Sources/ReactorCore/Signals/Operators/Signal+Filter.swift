extension Signal {
    /// Sends only the values for which `isIncluded` is true (RAC's `where`).
    @inlinable
    public func filter(_ isIncluded: @escaping (Value) -> Bool) -> Signal<Value> {
        let name = named("filter")
        return Signal(name: name) { observer in
            self.relay(as: name, to: observer) { value in
                if isIncluded(value) { observer.forward(value) }
            }
        }
    }
}
