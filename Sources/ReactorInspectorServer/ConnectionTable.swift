import ReactorCore
import Synchronization

/// The open connections of ``InspectorServer``: what each is doing, until
/// when it may, and the task serving it, so that one past its deadline, or
/// the longest-waiting one when the cap is reached, can be closed.
final class ConnectionTable: Sendable {
    /// What a connection is doing, which decides its deadline.
    enum Phase: Sendable {
        /// Waiting for the first byte of its next request (idle timeout).
        case idle
        /// Receiving a request head (head timeout, from its first byte).
        case head
        /// Its answer is being made (no deadline: the work is bounded by the trace).
        case answering
        /// Waiting for the client to take bytes of the answer (write timeout).
        case writing
        /// An event stream waiting for its next message (no deadline: it writes a heartbeat).
        case streaming
    }

    private struct Entry {
        var phase: Phase
        /// Monotonic nanoseconds of the phase's start.
        var since: UInt64
        /// Monotonic nanoseconds past which the connection is closed; nil: none.
        var deadline: UInt64?
        var task: Task<Void, Never>?
    }

    private let entries = LockedValue<[UInt64: Entry]>([:])
    private let nextID = Atomic<UInt64>(0)

    /// How many are open.
    var count: Int { entries.withLock { $0.count } }

    /// Registers a new connection, idle until `deadline`, and returns its id.
    func open(now: UInt64, deadline: UInt64) -> UInt64 {
        let id = nextID.add(1, ordering: .relaxed).newValue
        entries.withLock { $0[id] = Entry(phase: .idle, since: now, deadline: deadline) }
        return id
    }

    /// Hands over the task serving `id`; cancelled at once when the connection was closed meanwhile.
    func attach(_ task: Task<Void, Never>, to id: UInt64) {
        let open = entries.withLock { entries -> Bool in
            guard entries[id] != nil else { return false }
            entries[id]?.task = task
            return true
        }
        if !open { task.cancel() }
    }

    /// Moves `id` to `phase`, with a deadline (nil: none).
    func enter(_ phase: Phase, id: UInt64, now: UInt64, deadline: UInt64?) {
        entries.withLock { entries in
            guard entries[id] != nil else { return }
            entries[id]?.phase = phase
            entries[id]?.since = now
            entries[id]?.deadline = deadline
        }
    }

    /// Forgets `id` (its task closed the socket).
    func close(_ id: UInt64) {
        _ = entries.withLock { $0.removeValue(forKey: id) }
    }

    /// Cancels every connection whose deadline has passed, and returns how many.
    @discardableResult
    func closeExpired(now: UInt64) -> Int {
        let expired = entries.withLock { entries in
            var tasks: [Task<Void, Never>] = []
            for (id, entry) in entries {
                guard let deadline = entry.deadline, deadline <= now else { continue }
                entries[id]?.deadline = nil
                if let task = entry.task { tasks.append(task) }
            }
            return tasks
        }
        for task in expired { task.cancel() }
        return expired.count
    }

    /// Cancels the connection that has waited longest for a request (idle or
    /// sending its head), other than `sparing`; false when every one is busy.
    func closeLongestWaiting(sparing: UInt64? = nil) -> Bool {
        closeLongestWaiting(upTo: 1, sparing: sparing) > 0
    }

    /// Cancels up to `limit` of the connections that have waited longest for a
    /// request, other than `sparing`, and returns how many.
    func closeLongestWaiting(upTo limit: Int, sparing: UInt64? = nil) -> Int {
        let tasks = entries.withLock { entries -> [Task<Void, Never>] in
            var waiting: [(id: UInt64, since: UInt64)] = []
            for (id, entry) in entries where id != sparing && entry.task != nil && entry.deadline != nil {
                switch entry.phase {
                case .idle, .head: waiting.append((id, entry.since))
                case .answering, .writing, .streaming: continue
                }
            }
            waiting.sort { $0.since < $1.since }
            var tasks: [Task<Void, Never>] = []
            for (id, _) in waiting.prefix(limit) {
                guard let task = entries[id]?.task else { continue }
                // Closed from now on: neither a deadline nor a second eviction picks it again.
                entries[id]?.deadline = nil
                entries[id]?.phase = .answering
                tasks.append(task)
            }
            return tasks
        }
        for task in tasks { task.cancel() }
        return tasks.count
    }

    /// Cancels every connection (the server stops).
    func closeAll() {
        let tasks = entries.withLock { $0.values.compactMap(\.task) }
        for task in tasks { task.cancel() }
    }
}
