extension Reactor {
    /// The values of a reactive expression as an `AsyncSequence`: its value
    /// now, then its new value each time what it read changes and the new
    /// value differs from the last one sent.
    ///
    /// The expression comes first, so the loop reads as it is written, with no
    /// trailing closure for the compiler to confuse with the loop's body:
    ///
    /// ```swift
    /// for await total in reactor.changes({ cart.total }) { label.text = "\(total)" }
    /// for await total in reactor.changes({ cart.total }, name: "cart total") { … }
    /// ```
    ///
    /// The expression runs in an autorun of this runtime (reruns happen on the
    /// thread that wrote, at the end of its batch), named `name` in a trace
    /// (`changes File.swift:12` without one); values wait in order until the
    /// loop takes them. Cancelling the iterating task (or dropping the
    /// sequence) stops the autorun. The sequence never ends by itself.
    public func changes<T: Equatable & Sendable>(_ expression: @escaping () -> T, name: String? = nil,
                                                 fileID: String = #fileID, line: Int = #line) -> AsyncStream<T> {
        let (stream, continuation) = AsyncStream.makeStream(of: T.self)
        let subscription = signal(name ?? "changes \(fileID):\(line)", expression)
            .subscribe(next: { continuation.yield($0) })
        continuation.onTermination = { _ in subscription.cancel() }
        return stream
    }
}
