extension Signal {
    /// Sends only the values for which `isIncluded` is true (RAC's `where`).
    @inlinable
    public func filter(_ isIncluded: @escaping (Value) -> Bool) -> Signal<Value> {
        Signal { observer in
            self.relay(to: observer) { value in
                if isIncluded(value) { observer.forward(value) }
            }
        }
    }
}
