import Observation

/// The synchronous drain behind the Observation implementations: effects
/// queued by `onChange` during a write (or a batch of writes) rerun, in order,
/// when ``drain()`` is called after it, until none is left.
///
/// Internal storage: `@unchecked Sendable` because `onChange` closures reach it;
/// the benchmarks write and drain on one thread.
final class ObservationScheduler: @unchecked Sendable {
    let counter = EffectCounter()
    private var pending: [ObservationEffect] = []
    private var effects: [ObservationEffect] = []

    /// An effect that runs `body` now and after every change to what it read.
    func effect(_ body: @escaping () -> Void) {
        let counter = counter
        let effect = ObservationEffect(scheduler: self, tracked: {
            body()
            counter.runs += 1
            return 0
        }, commit: nil)
        effects.append(effect)
        effect.run()
    }

    /// A memoized derived value: an observable cell kept equal to `compute()` by
    /// an effect (what Observation offers in place of a computed value).
    func derived(_ compute: @escaping () -> Int) -> ObservedSignal {
        let cell = ObservedSignal(0)
        let effect = ObservationEffect(scheduler: self, tracked: compute, commit: { value in
            if cell.value != value { cell.value = value }
        })
        effects.append(effect)
        effect.run()
        return cell
    }

    /// Runs `body` (the writes), then reruns every effect it invalidated.
    @inline(__always)
    func batch(_ body: () -> Void) {
        body()
        drain()
    }

    func schedule(_ effect: ObservationEffect) {
        if effect.queued { return }
        effect.queued = true
        pending.append(effect)
    }

    /// Reruns the queued effects, and those their writes queue, until none is left.
    func drain() {
        var index = 0
        while index < pending.count {
            let effect = pending[index]
            index += 1
            effect.run()
        }
        pending.removeAll(keepingCapacity: true)
    }

    deinit {
        for effect in effects { effect.stopped = true }
    }
}
