/// The receiving end of one subscription: the subscriber's closures and the
/// subscription upstream of it.
///
/// Internal storage: `@unchecked Sendable` because every field is read and
/// written with the graph lock held (every delivery, subscribe and cancel
/// takes it), which is also what keeps deliveries to one subscriber from
/// interleaving when several threads send.
@usableFromInline
final class SignalSink<Value>: @unchecked Sendable {
    /// Nil once terminated: a value sent after that is dropped.
    @usableFromInline @exclusivity(unchecked) var onNext: ((Value) -> Void)?
    @usableFromInline @exclusivity(unchecked) var onError: ((any Error) -> Void)?
    @usableFromInline @exclusivity(unchecked) var onCompleted: (() -> Void)?
    /// True after an error, a completion or a cancel.
    @usableFromInline @exclusivity(unchecked) var isTerminated = false
    /// What this sink subscribed to; released when it terminates.
    @usableFromInline @exclusivity(unchecked) var upstream: Subscription?

    @usableFromInline
    init(next: ((Value) -> Void)?, error: ((any Error) -> Void)?, completed: (() -> Void)?) {
        onNext = next
        onError = error
        onCompleted = completed
    }

    /// Delivers a value. Graph lock held.
    @inlinable @inline(__always)
    func receive(_ value: Value) {
        // The local keeps the closure alive even if it terminates this sink.
        if let onNext { onNext(value) }
    }

    /// Delivers the error, then releases the closures and cancels upstream. Graph lock held.
    @usableFromInline
    func receive(error: any Error) {
        guard !isTerminated else { return }
        let handler = onError
        let upstream = terminate()
        handler?(error)
        upstream?.cancel()
    }

    /// Delivers the completion, then releases the closures and cancels upstream. Graph lock held.
    @usableFromInline
    func receiveCompleted() {
        guard !isTerminated else { return }
        let handler = onCompleted
        let upstream = terminate()
        handler?()
        upstream?.cancel()
    }

    /// Stops deliveries and cancels upstream (the subscriber cancelled). Graph lock held.
    func cancel() {
        terminate()?.cancel()
    }

    /// Records the subscription the signal's body returned, or cancels it at
    /// once if this sink already terminated while the body ran. Graph lock held.
    func attach(_ subscription: Subscription?) {
        if isTerminated {
            subscription?.cancel()
        } else {
            upstream = subscription
        }
    }

    /// Marks the sink terminated and drops its closures; returns the upstream
    /// subscription for the caller to cancel.
    private func terminate() -> Subscription? {
        isTerminated = true
        onNext = nil
        onError = nil
        onCompleted = nil
        let upstream = self.upstream
        self.upstream = nil
        return upstream
    }
}
