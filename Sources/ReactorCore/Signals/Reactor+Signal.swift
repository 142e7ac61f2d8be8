extension Reactor {
    /// A signal of a reactive expression: each subscriber runs `expression` in
    /// an autorun of this runtime, receives its value at once and again each
    /// time the expression reruns with a new value. Cancelling the
    /// subscription stops the autorun. The signal never completes.
    ///
    /// ```swift
    /// let greeting = reactor.signal { "Hello, \(person.name)" }
    /// ```
    public func signal<T>(_ name: String? = nil, fileID: String = #fileID, line: Int = #line,
                          _ expression: @escaping () -> T) -> Signal<T> {
        bridge(name: name ?? "signal \(fileID):\(line)", isEqual: nil, expression)
    }

    /// A signal of a reactive expression that sends only values different from
    /// the previous one: it emits each time the expression's value changes.
    public func signal<T: Equatable>(_ name: String? = nil, fileID: String = #fileID, line: Int = #line,
                                     _ expression: @escaping () -> T) -> Signal<T> {
        bridge(name: name ?? "signal \(fileID):\(line)", isEqual: { $0 == $1 }, expression)
    }

    private func bridge<T>(name: String, isEqual: ((T, T) -> Bool)?, _ expression: @escaping () -> T) -> Signal<T> {
        let signalID = ReactorTracing.makeID()
        withTracer { $0.nodeCreated(signalID, kind: .signal, name: name, parent: 0) }
        return Signal(name: name) { [self] observer in
            var last: T?
            let computation = autorun(name) { _ in
                let value = expression()
                if let isEqual, let last, isEqual(last, value) { return }
                last = value
                // The value is a change of the signal's node, caused by this run.
                withTracer { $0.changed(dependency: signalID) }
                observer.send(value, from: signalID)
            }
            return Subscription { computation.stop() }
        }
    }
}
