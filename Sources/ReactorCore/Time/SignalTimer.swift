/// The one pending timer of a time operator's subscriber, on a `Clock`.
///
/// Internal storage: `@unchecked Sendable` because every field is read and
/// written with the graph lock held (the operator's deliveries hold it, and a
/// firing timer takes it). A generation number makes a timer that was
/// replaced or cancelled a no-op even if its task wakes anyway.
final class SignalTimer<C: Clock>: @unchecked Sendable {
    let clock: C
    private var task: Task<Void, Never>?
    private var generation = 0

    init(clock: C) {
        self.clock = clock
    }

    /// True while a timer is set. Graph lock held.
    var isPending: Bool { task != nil }

    /// Replaces any pending timer by one that runs `fire` with the graph lock
    /// held at `deadline`, on a task of its own. Graph lock held.
    func schedule(at deadline: C.Instant, _ fire: @escaping () -> Void) {
        task?.cancel()
        generation &+= 1
        let expected = generation
        let fire = UncheckedSendable(fire)
        task = Task { [self] in
            do {
                try await clock.sleep(until: deadline, tolerance: nil)
            } catch {
                return
            }
            signalDelivery {
                guard generation == expected else { return }
                task = nil
                fire.wrapped()
            }
        }
    }

    /// Cancels the pending timer, if any. Graph lock held.
    func cancel() {
        task?.cancel()
        task = nil
        generation &+= 1
    }
}
