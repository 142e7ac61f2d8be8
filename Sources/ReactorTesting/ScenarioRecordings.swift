import Foundation
import ReactorCore
import ReactorTrace
import Synchronization

/// The recordings in progress, and the router (``ScenarioTracer``) that
/// reaches them through the process-wide tracer slot.
///
/// Recordings run side by side instead of taking turns: a recording whose
/// body suspends must not hold anything a synchronous recording would block
/// on (on the cooperative pool that deadlocks). Beginning or ending one only
/// swaps the router under a short lock; no lock is held while a body runs.
enum ScenarioRecordings {
    /// One recording in progress.
    private struct Recording {
        let target: ScenarioTracer.Target
        let scope: ScenarioTrace.Scope
        /// A foreign tracer held the slot when the recording began, so its
        /// events could not reach it.
        var missedEvents: Bool
    }

    private struct State {
        var recordings: [UInt64: Recording] = [:]
        /// The tracer installed before the first of the recordings in progress began.
        var previous: (any ReactorTracer)?
        /// The router installed last.
        var router: ScenarioTracer?

        /// A router for the recordings in progress.
        func makeRouter() -> ScenarioTracer {
            var scenarios: [UInt64: ScenarioTracer.Target] = [:]
            var everywhere: [ScenarioTracer.Target] = []
            for (id, recording) in recordings {
                switch recording.scope {
                case .task: scenarios[id] = recording.target
                case .process: everywhere.append(recording.target)
                }
            }
            return ScenarioTracer(scenarios: scenarios, everywhere: everywhere,
                                  previous: previous.map(ScenarioTracer.Target.init))
        }

        /// True while the router installed last still holds the slot.
        var holdsSlot: Bool { router != nil && ReactorTracing.tracer === router }
    }

    // Guarded by `lock`, a pthread mutex (NSLock) rather than `Mutex`: on Linux `Mutex` waits on a raw
    // futex that ThreadSanitizer cannot see, so the thread suites reported this state as racing.
    nonisolated(unsafe) private static var state = State()
    private static let lock = NSLock()
    private static let nextID = Atomic<UInt64>(0)

    /// Starts routing the events of `scope` to `recorder`; returns the
    /// scenario id to bind around the body.
    static func begin(_ recorder: TraceRecorder, scope: ScenarioTrace.Scope) -> UInt64 {
        let id = nextID.add(1, ordering: .relaxed).newValue
        lock.withLock {
            var missedEvents = false
            if state.recordings.isEmpty {
                // A router left installed (put back by hand after the last recording ended) routes to nothing.
                let installed = ReactorTracing.tracer
                state.previous = if let router = installed as? ScenarioTracer { router.previous?.tracer } else { installed }
            } else if !state.holdsSlot {
                missedEvents = true
            }
            state.recordings[id] = Recording(target: ScenarioTracer.Target(recorder), scope: scope, missedEvents: missedEvents)
            if !missedEvents {
                let router = state.makeRouter()
                ReactorTracing.install(router)
                state.router = router
            }
        }
        return id
    }

    /// Stops routing events to the recording `id`; returns false when another
    /// tracer holds the slot, or held it when the recording began (then the
    /// recording misses events). The slot is left to that tracer: the
    /// recordings still in progress end with the same answer unless the
    /// router is put back first.
    static func end(_ id: UInt64) -> Bool {
        lock.withLock {
            guard let recording = state.recordings.removeValue(forKey: id) else { return false }
            let heldSlot = state.holdsSlot
            if state.recordings.isEmpty {
                if heldSlot { ReactorTracing.install(state.previous) }
                state.previous = nil
                state.router = nil
            } else if heldSlot {
                let router = state.makeRouter()
                ReactorTracing.install(router)
                state.router = router
            }
            return heldSlot && !recording.missedEvents
        }
    }
}
