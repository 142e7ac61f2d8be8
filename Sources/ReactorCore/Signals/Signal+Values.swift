extension Signal where Value: Sendable {
    /// The signal's values as an `AsyncSequence`, for `for await`:
    ///
    /// ```swift
    /// for await text in field.signal.values { … }
    /// ```
    ///
    /// Asking for `values` subscribes at once; values sent before the loop
    /// asks for them are buffered, in order. The sequence ends when the
    /// signal completes or fails (``throwingValues`` throws the error).
    /// Cancelling the task that iterates it (or dropping the sequence)
    /// cancels the subscription, and with it everything upstream.
    public var values: AsyncStream<Value> {
        let (stream, continuation) = AsyncStream.makeStream(of: Value.self)
        let subscription = subscribe(next: { continuation.yield($0) },
                                     error: { _ in continuation.finish() },
                                     completed: { continuation.finish() })
        continuation.onTermination = { _ in subscription.cancel() }
        return stream
    }

    /// ``values`` that throws the signal's error, for `for try await`.
    public var throwingValues: AsyncThrowingStream<Value, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: Value.self, throwing: (any Error).self)
        let subscription = subscribe(next: { continuation.yield($0) },
                                     error: { continuation.finish(throwing: $0) },
                                     completed: { continuation.finish() })
        continuation.onTermination = { _ in subscription.cancel() }
        return stream
    }
}
