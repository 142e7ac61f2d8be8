/// A clock that moves only when told to: time operators tested without waiting.
///
/// ```swift
/// let clock = ManualClock()
/// let subscription = field.signal.debounce(for: .milliseconds(300), clock: clock).subscribe(next: { … })
/// field.send("re")
/// clock.advance(by: .milliseconds(300))   // the debounced value is sent now
/// ```
///
/// ``advance(by:)`` resumes, in deadline order, every sleeper whose deadline
/// it reached; they run on their own tasks. ``waitUntilSleeping(_:)`` waits
/// until an operator has started waiting on the clock, so a test can advance
/// past a deadline it knows is set. A cancelled sleeper throws
/// `CancellationError` at once.
public final class ManualClock: Clock, Sendable {
    /// A moment of a manual clock: the time since the clock's start.
    public struct Instant: InstantProtocol, Sendable {
        /// The time since the clock's start.
        public var offset: Duration

        /// The moment `offset` after the clock's start.
        public init(offset: Duration) {
            self.offset = offset
        }

        /// The moment `duration` after this one.
        public func advanced(by duration: Duration) -> Instant {
            Instant(offset: offset + duration)
        }

        /// The time from this moment to `other`.
        public func duration(to other: Instant) -> Duration {
            other.offset - offset
        }

        /// Earlier moments first.
        public static func < (lhs: Instant, rhs: Instant) -> Bool {
            lhs.offset < rhs.offset
        }
    }

    private struct Sleeper {
        var deadline: Instant
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now = Instant(offset: .zero)
        var nextID = 0
        var sleepers: [Int: Sleeper] = [:]
        var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = LockedValue(State())

    /// A clock at its start (offset zero).
    public init() {}

    /// The clock's current moment.
    public var now: Instant { state.withLock { $0.now } }

    /// Zero: the clock has no granularity of its own.
    public var minimumResolution: Duration { .zero }

    /// How many sleepers are waiting for a deadline still ahead.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// Suspends until the clock is advanced to `deadline` (returns at once if
    /// it already has); throws `CancellationError` if the task is cancelled first.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome: Result<Void, any Error>? = state.withLock { state in
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if deadline <= state.now { return .success(()) }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return nil
                }
                if let outcome {
                    continuation.resume(with: outcome)
                } else {
                    resumeWaiters()
                }
            }
        } onCancel: {
            let sleeper = state.withLock { $0.sleepers.removeValue(forKey: id) }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves the clock `duration` ahead and wakes the sleepers it reached.
    public func advance(by duration: Duration) {
        advance(to: now.advanced(by: duration))
    }

    /// Moves the clock to `instant` (if it is ahead) and wakes, in deadline
    /// order, the sleepers it reached.
    public func advance(to instant: Instant) {
        let due = state.withLock { state -> [Sleeper] in
            if instant > state.now { state.now = instant }
            let reached = state.sleepers.filter { $0.value.deadline <= state.now }
            for id in reached.keys { state.sleepers[id] = nil }
            return reached.values.sorted { $0.deadline < $1.deadline }
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// Returns once at least `count` sleepers are waiting on the clock.
    public func waitUntilSleeping(_ count: Int = 1) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state -> Bool in
                if state.sleepers.count >= count { return true }
                state.waiters.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    private func resumeWaiters() {
        let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            let count = state.sleepers.count
            let ready = state.waiters.filter { $0.count <= count }.map(\.continuation)
            state.waiters.removeAll { $0.count <= count }
            return ready
        }
        for continuation in ready { continuation.resume() }
    }
}
