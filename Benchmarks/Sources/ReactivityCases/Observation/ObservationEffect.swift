import Observation

/// An autorun on Swift's Observation: runs `tracked` inside
/// `withObservationTracking`, and when something it read is about to change
/// (`onChange`, called from the property's `willSet`) queues itself on its
/// scheduler, which reruns it, re-arming the tracking, after the write.
///
/// Internal storage: `@unchecked Sendable` because `onChange` must be
/// `@Sendable`; the benchmarks write and drain on one thread.
final class ObservationEffect: @unchecked Sendable {
    private unowned let scheduler: ObservationScheduler
    private let tracked: () -> Int
    private let commit: ((Int) -> Void)?
    var queued = false
    var stopped = false

    /// `commit` receives the tracked result outside the tracking (a derived
    /// cell stores it there, so that it does not observe itself).
    init(scheduler: ObservationScheduler, tracked: @escaping () -> Int, commit: ((Int) -> Void)?) {
        self.scheduler = scheduler
        self.tracked = tracked
        self.commit = commit
    }

    func run() {
        queued = false
        if stopped { return }
        let result = withObservationTracking(tracked, onChange: { [unowned self] in
            self.scheduler.schedule(self)
        })
        commit?(result)
    }
}
