import Synchronization

/// A handle on an ongoing subscription: cancelling it stops deliveries and
/// releases everything the subscription holds, upstream included.
///
/// A subscription cancels itself when it is released (Reflow's rule, Combine's
/// habit), so keep it as long as you want events. ``cancel()`` may be called
/// any number of times from any thread; the cleanup runs exactly once.
public final class Subscription: @unchecked Sendable {
    // @unchecked Sendable: `cleanup` is written by `init` and then read and
    // cleared only by the one caller that wins the `cancelled` exchange.
    private let cancelled = Atomic<Bool>(false)
    private var cleanup: (() -> Void)?

    /// Creates a subscription whose `cancel` closure runs once, on the first
    /// ``cancel()`` or when the subscription is released.
    public init(_ cancel: @escaping () -> Void = {}) {
        cleanup = cancel
    }

    deinit {
        cancel()
    }

    /// Stops the subscription and runs its cleanup, which cancels what it
    /// subscribed to in turn. Only the first call has an effect.
    public func cancel() {
        guard !cancelled.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let cleanup = self.cleanup
        self.cleanup = nil
        cleanup?()
    }

    /// True once ``cancel()`` has been called (or the subscription released).
    public var isCancelled: Bool {
        cancelled.load(ordering: .acquiring)
    }
}

extension Subscription {
    /// One subscription that cancels all of `subscriptions`, in order.
    convenience init(cancelling subscriptions: [Subscription]) {
        self.init { for subscription in subscriptions { subscription.cancel() } }
    }
}
