import Dispatch
import Foundation
import ReactorCore
import ReactorInspector
import Synchronization

/// The on-demand questions of `serve` that read the trace (`why`, a moment's
/// state or graph, events, the timeline): at most one pass per question at a
/// time, a few per kind, each with its progress and a way to stop it.
///
/// A question asked again while its pass runs waits for that pass's answer
/// instead of starting another. Each kind has its own worker, and at most
/// ``maxPerKind`` distinct questions of a kind wait or run at once: a client
/// asking more is answered 503 (it cannot queue unbounded passes). A question
/// whose every asker has gone (the page's Cancel, a closed connection) is
/// cancelled: its pass stops at its next batch (``TracePass``), or before it
/// begins when it was still waiting, and its worker takes the next.
final class QuestionBoard: Sendable {
    /// One question being answered.
    private final class Entry: Sendable {
        let id: UInt64
        let kind: String
        let subject: String
        let pass: TracePass
        /// Events the pass reads at most (every pass of the question together).
        let total: Int
        let state = LockedValue(Waiters())

        init(id: UInt64, kind: String, subject: String, pass: TracePass, total: Int) {
            self.id = id
            self.kind = kind
            self.subject = subject
            self.pass = pass
            self.total = total
        }
    }

    private struct Waiters {
        var next: UInt64 = 0
        /// Askers waiting for the answer (joined and not gone).
        var askers = 0
        var continuations: [UInt64: CheckedContinuation<InspectorResponse, Never>] = [:]
        var started = false
        var answer: InspectorResponse?
    }

    /// Distinct questions of one kind waiting or being answered at once.
    static let maxPerKind = 4

    private let entries = LockedValue<[String: Entry]>([:])
    private let nextID = Atomic<UInt64>(0)

    /// Answers the question `subject` of `kind` (`key`: what makes two questions the same) by `work`
    /// on `queue`, under a ``TracePass`` (which `work` may limit before it reads); `total`: the events it reads at most.
    func answer(kind: String, subject: String, key: String, total: Int, on queue: DispatchQueue,
                _ work: @escaping @Sendable (TracePass) -> InspectorResponse) async -> InspectorResponse {
        let fullKey = kind + "\u{0}" + key
        // Joined as an asker under the table's lock, so that the last asker leaving cannot cancel it in between.
        let joined: (Entry, UInt64)? = entries.withLock { entries in
            // A pass being cancelled (its askers left) is not joined: asked again, the question starts afresh.
            var entry = entries[fullKey].flatMap { $0.pass.isCancelled ? nil : $0 }
            if entry == nil {
                guard entries.values.filter({ $0.kind == kind && !$0.pass.isCancelled }).count < Self.maxPerKind
                else { return nil }
                let created = Entry(id: nextID.add(1, ordering: .relaxed).newValue, kind: kind, subject: subject,
                                    pass: TracePass(), total: total)
                entries[fullKey] = created
                queue.async { self.run(created, key: fullKey, work) }
                entry = created
            }
            guard let entry else { return nil }
            let waiter = entry.state.withLock { state -> UInt64 in
                state.next += 1
                state.askers += 1
                return state.next
            }
            return (entry, waiter)
        }
        guard let (entry, waiter) = joined else {
            return InspectorAPI.error(status: 503, "\(Self.maxPerKind) \(kind) questions are being read already: "
                                      + "ask again when one is answered")
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let ready: InspectorResponse? = entry.state.withLock { state in
                    if let answer = state.answer { return answer }
                    if Task.isCancelled { return Self.cancelled }
                    state.continuations[waiter] = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            leave(entry, key: fullKey, waiter: waiter)
        }
    }

    /// The asker `waiter` has gone: its wait ends; the last one's going cancels the pass.
    private func leave(_ entry: Entry, key: String, waiter: UInt64) {
        let (continuation, nobodyLeft) = entry.state.withLock { state in
            state.askers -= 1
            return (state.continuations.removeValue(forKey: waiter), state.answer == nil && state.askers == 0)
        }
        continuation?.resume(returning: Self.cancelled)
        guard nobodyLeft else { return }
        entry.pass.cancel()
        // A question still waiting for its worker is forgotten now: asked again, it starts afresh.
        entries.withLock { entries in
            if entries[key]?.id == entry.id, !entry.state.withLock({ $0.started }) { entries[key] = nil }
        }
    }

    private func run(_ entry: Entry, key: String, _ work: @Sendable (TracePass) -> InspectorResponse) {
        entry.state.withLock { $0.started = true }
        let response = entry.pass.isCancelled ? Self.cancelled : entry.pass.run { work(entry.pass) }
        entries.withLock { entries in
            if entries[key]?.id == entry.id { entries[key] = nil }
        }
        let waiting = entry.state.withLock { state in
            state.answer = entry.pass.isCancelled ? Self.cancelled : response
            defer { state.continuations.removeAll() }
            return Array(state.continuations.values)
        }
        for continuation in waiting { continuation.resume(returning: entry.pass.isCancelled ? Self.cancelled : response) }
    }

    /// The answer to a question nobody waits for any more.
    static let cancelled = InspectorAPI.error(status: 499, "cancelled")

    /// The questions being answered or waiting, for the page's progress lines.
    func progress() -> ProgressAnswer {
        let current = entries.withLock { Array($0.values) }.sorted { $0.id < $1.id }
        return ProgressAnswer(passes: current.map { entry in
            ProgressAnswer.Pass(kind: entry.kind, subject: entry.subject,
                                started: entry.state.withLock { $0.started },
                                eventsRead: entry.pass.eventsRead, events: entry.total)
        })
    }
}

/// `GET /api/progress`: the questions being read, with the events read so far.
struct ProgressAnswer: Encodable {
    struct Pass: Encodable {
        /// `why`, `state`, `graph`, `replay` or `timeline`.
        let kind: String
        /// What was asked: the node, the moment, the filter, the window.
        let subject: String
        /// False while it waits for its kind's worker.
        let started: Bool
        let eventsRead: Int
        /// The events its passes read at most.
        let events: Int
    }

    let passes: [Pass]
}
