import Testing
import ReactorCore

private final class Switchboard {
    @Reactive var trigger = 0
    @Reactive var note = 0
}

/// Runs `body` with a fresh recording tracer installed, and removes it after.
private func recording(_ body: (RecordingTracer) throws -> Void) rethrows {
    let tracer = RecordingTracer()
    ReactorTracing.install(tracer)
    defer { ReactorTracing.install(nil) }
    try body(tracer)
}

extension TracerTests {
    /// The flush's reruns one after another: each run's end is followed by
    /// the next rerun's begin (the recorder records the two with one clock
    /// reading). A tracer without its own entry points gets the same calls
    /// in the same order.
    @Test func aFlushsRerunsFollowOneAnother() {
        recording { tracer in
            let reactor = Reactor(scheduler: .manual)
            let board = Switchboard()
            let first = reactor.autorun("first") { _ in _ = board.trigger }
            let second = reactor.autorun("second") { _ in _ = board.trigger }
            let trigger = board.$trigger.projectedDependency.id
            let start = tracer.events.count
            board.trigger = 1
            reactor.flush()
            #expect(Array(tracer.events[start...]) == [
                .changed(trigger),
                .invalidated(first.id, .dependency, source: trigger),
                .invalidated(second.id, .dependency, source: trigger),
                .flushBegan,
                .rerunBegan(first.id, firstRun: false),
                .depend(computation: first.id, dependency: trigger),
                .rerunEnded(first.id),
                .rerunBegan(second.id, firstRun: false),
                .depend(computation: second.id, dependency: trigger),
                .rerunEnded(second.id),
                .flushEnded,
            ])
            first.stop()
            second.stop()
        }
    }

    /// A rerun that throws ends, then its `onError` runs (here: a write,
    /// with its events), and only then does the next rerun begin.
    @Test func theNextRerunBeginsAfterTheErrorHandlerOfAThrowingRun() {
        struct Failure: Error {}
        recording { tracer in
            let reactor = Reactor(scheduler: .manual)
            let board = Switchboard()
            let failing = reactor.autorun("failing", onError: { _ in board.note += 1 }) { computation in
                _ = board.trigger
                if !computation.isFirstRun { throw Failure() }
            }
            let next = reactor.autorun("next") { _ in _ = board.trigger }
            _ = board.note  // named at its first access, before the events looked at
            let note = board.$note.projectedDependency.id
            let start = tracer.events.count
            board.trigger = 1
            reactor.flush()
            let events = Array(tracer.events[start...])
            let end = try? #require(events.firstIndex(of: .rerunEnded(failing.id)))
            #expect(events[(end ?? 0)...].prefix(3) == [
                .rerunEnded(failing.id),
                .changed(note),
                .rerunBegan(next.id, firstRun: false),
            ])
            #expect(events.filter { $0 == .rerunBegan(next.id, firstRun: false) }.count == 1)
            failing.stop()
            next.stop()
        }
    }

    /// A computation that invalidates itself reruns at once until the
    /// runaway limit: each rerun that runs has one begin and one end, and
    /// the run the limit refuses has none.
    @Test func aRunawaysRefusedRerunRecordsNoBegin() {
        recording { tracer in
            let reactor = Reactor(scheduler: .manual)
            reactor.issueHandler = { _ in }
            reactor.runawayLimit = 3
            let board = Switchboard()
            var runs = 0
            let looping = reactor.autorun("looping") { computation in
                runs += 1
                _ = board.trigger
                if !computation.isFirstRun { computation.invalidate() }
            }
            let start = tracer.events.count
            board.trigger = 1
            reactor.flush()
            #expect(looping.isStopped)
            let runEvents = tracer.events[start...].filter { event in
                switch event {
                case .rerunBegan(looping.id, _), .rerunEnded(looping.id), .invalidated(looping.id, .runaway, _): true
                default: false
                }
            }
            #expect(runs == 1 + 3)
            #expect(runEvents == [
                .rerunBegan(looping.id, firstRun: false), .rerunEnded(looping.id),
                .rerunBegan(looping.id, firstRun: false), .rerunEnded(looping.id),
                .rerunBegan(looping.id, firstRun: false), .rerunEnded(looping.id),
                .invalidated(looping.id, .runaway, source: 0),
            ])
        }
    }

    /// The next computation in the flush only needs to check a computed it
    /// read: the check's refresh comes first (the computed's rerun), then
    /// that computation's own rerun, not the other way round.
    @Test func aCheckBeforeTheNextRerunComesFirst() {
        recording { tracer in
            let reactor = Reactor(scheduler: .manual)
            let board = Switchboard()
            let first = reactor.autorun("first") { _ in _ = board.trigger }
            let parity = reactor.computed("parity") { board.trigger % 2 }
            let second = reactor.autorun("second") { _ in _ = parity.value }
            let start = tracer.events.count
            board.trigger = 1
            reactor.flush()
            let events = Array(tracer.events[start...])
            let end = try? #require(events.firstIndex(of: .rerunEnded(first.id)))
            #expect(events[(end ?? 0)...].prefix(2) == [
                .rerunEnded(first.id),
                .rerunBegan(parity.id, firstRun: false),
            ])
            let secondBegin = events.firstIndex(of: .rerunBegan(second.id, firstRun: false))
            let parityEnd = events.firstIndex(of: .rerunEnded(parity.id))
            #expect(secondBegin != nil && parityEnd != nil && secondBegin! > parityEnd!)
            first.stop()
            second.stop()
        }
    }

    /// A tracer installed after a run's end recorded the next rerun's begin
    /// for another tracer records that begin itself.
    @Test func aNewTracerRecordsTheBeginsOfItsReruns() {
        let reactor = Reactor(scheduler: .manual)
        let board = Switchboard()
        let first = reactor.autorun("first") { _ in _ = board.trigger }
        var replaced: RecordingTracer?
        let second = reactor.autorun("second") { computation in
            _ = board.trigger
            // Once first has ended (its end recorded second's begin), a
            // new tracer is installed for the rest of the flush.
            if !computation.isFirstRun, replaced == nil {
                replaced = RecordingTracer()
                ReactorTracing.install(replaced)
            }
        }
        let third = reactor.autorun("third") { _ in _ = board.trigger }
        recording { _ in
            board.trigger = 1
            reactor.flush()
            let events = replaced?.events ?? []
            // The new tracer sees third's begin, which second's end recorded for it.
            #expect(events.prefix(2) == [.rerunEnded(second.id), .rerunBegan(third.id, firstRun: false)])
            board.trigger = 2
            reactor.flush()
            #expect(replaced?.events.contains(.rerunBegan(first.id, firstRun: false)) == true)
        }
        first.stop()
        second.stop()
        third.stop()
    }
}
