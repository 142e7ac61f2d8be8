import ReactorCore
import Synchronization
import Testing

/// Collects a signal's events; a test awaits each one as it comes (time
/// operators send from their timer's task), or reads those received so far.
final class EventProbe<Value: Sendable & Equatable>: Sendable {
    enum Event: Equatable, Sendable {
        case value(Value)
        case completed
        case failed(String)
    }

    private struct State {
        var events: [Event] = []
        var consumed = 0
        var waiter: CheckedContinuation<Event, Never>?
    }

    private let state = LockedValue(State())

    /// Everything received so far.
    var received: [Event] { state.withLock { $0.events } }

    func subscribe(_ signal: Signal<Value>) -> Subscription {
        signal.subscribe(next: { self.record(.value($0)) },
                         error: { self.record(.failed("\($0)")) },
                         completed: { self.record(.completed) })
    }

    private func record(_ event: Event) {
        let waiter = state.withLock { state -> CheckedContinuation<Event, Never>? in
            state.events.append(event)
            guard let waiter = state.waiter else { return nil }
            state.waiter = nil
            state.consumed += 1
            return waiter
        }
        waiter?.resume(returning: event)
    }

    /// The next event not yet returned, waiting for it if it has not come yet.
    func next() async -> Event {
        await withCheckedContinuation { (continuation: CheckedContinuation<Event, Never>) in
            let ready = state.withLock { state -> Event? in
                guard state.consumed < state.events.count else {
                    state.waiter = continuation
                    return nil
                }
                state.consumed += 1
                return state.events[state.consumed - 1]
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}

@Suite struct TimeOperatorThreadTests {
    @Test func debounceSendsOnlyAfterAQuietIntervalAndEachValueRestartsIt() async {
        let clock = ManualClock()
        let field = PassthroughSubject<String>()
        let probe = EventProbe<String>()
        let subscription = probe.subscribe(field.signal.debounce(for: .seconds(1), clock: clock))
        field.send("a")
        await clock.waitUntilSleeping()
        clock.advance(by: .milliseconds(500))
        field.send("ab")                          // restarts the wait: due at 1.5 s
        clock.advance(by: .milliseconds(600))     // 1.1 s: past "a"'s first deadline
        #expect(probe.received.isEmpty)
        clock.advance(by: .milliseconds(400))     // 1.5 s
        #expect(await probe.next() == .value("ab"))
        field.send("abc")
        field.sendCompleted()                     // the waiting value goes at once, then the completion
        #expect(await probe.next() == .value("abc"))
        #expect(await probe.next() == .completed)
        #expect(probe.received == [.value("ab"), .value("abc"), .completed])
        #expect(clock.sleeperCount == 0)
        subscription.cancel()
    }

    @Test func throttleLatestSendsTheFirstAtOnceThenTheLatestOfEachWindow() async {
        let clock = ManualClock()
        let subject = PassthroughSubject<Int>()
        let probe = EventProbe<Int>()
        let subscription = probe.subscribe(subject.signal.throttle(for: .seconds(1), clock: clock, latest: true))
        subject.send(1)
        #expect(probe.received == [.value(1)])    // no window open: at once
        subject.send(2)
        subject.send(3)
        await clock.waitUntilSleeping()
        clock.advance(by: .seconds(1))
        #expect(await probe.next() == .value(1))
        #expect(await probe.next() == .value(3))
        // The window reopened at 1 s and closes at 2 s with nothing held: then the next value goes at once.
        await clock.waitUntilSleeping()
        clock.advance(by: .seconds(1))
        subject.send(4)
        subject.sendCompleted()
        #expect(await probe.next() == .value(4))
        #expect(await probe.next() == .completed)
        subscription.cancel()
    }

    @Test func throttleFirstKeepsTheFirstValueOfTheWindow() async {
        let clock = ManualClock()
        let subject = PassthroughSubject<Int>()
        let probe = EventProbe<Int>()
        let subscription = probe.subscribe(subject.signal.throttle(for: .seconds(1), clock: clock, latest: false))
        for value in 1...4 { subject.send(value) }
        await clock.waitUntilSleeping()
        clock.advance(by: .seconds(1))
        #expect(await probe.next() == .value(1))
        #expect(await probe.next() == .value(2))
        subject.send(error: TestFailure())        // an error passes at once
        #expect(await probe.next() == .failed("\(TestFailure())"))
        #expect(probe.received == [.value(1), .value(2), .failed("\(TestFailure())")])
        subscription.cancel()
    }

    @Test func delaySendsEachValueAndTheCompletionLaterInOrder() async {
        let clock = ManualClock()
        let subject = PassthroughSubject<Int>()
        let probe = EventProbe<Int>()
        let subscription = probe.subscribe(subject.signal.delay(for: .seconds(1), clock: clock))
        subject.send(1)
        await clock.waitUntilSleeping()
        clock.advance(by: .milliseconds(300))
        subject.send(2)
        subject.send(3)
        subject.sendCompleted()
        #expect(probe.received.isEmpty)
        clock.advance(by: .milliseconds(700))     // 1.0 s: only 1 is due
        #expect(await probe.next() == .value(1))
        await clock.waitUntilSleeping()
        clock.advance(by: .seconds(5))            // everything else at once, still in order
        #expect(await probe.next() == .value(2))
        #expect(await probe.next() == .value(3))
        #expect(await probe.next() == .completed)
        subscription.cancel()
    }

    @Test func timeoutFailsOrCompletesWhenNoValueComesInTime() async {
        let clock = ManualClock()
        let subject = PassthroughSubject<Int>()
        let probe = EventProbe<Int>()
        let subscription = probe.subscribe(subject.signal.timeout(.seconds(1), clock: clock))
        await clock.waitUntilSleeping()
        clock.advance(by: .milliseconds(600))
        subject.send(1)                           // restarts the wait: due at 1.6 s
        clock.advance(by: .milliseconds(600))     // 1.2 s
        #expect(probe.received == [.value(1)])
        clock.advance(by: .milliseconds(400))
        #expect(await probe.next() == .value(1))
        #expect(await probe.next() == .failed("\(SignalTimeoutError())"))
        #expect(subject.subscriberCount == 0)     // upstream cancelled
        subscription.cancel()

        let quiet = PassthroughSubject<Int>()
        let ends = EventProbe<Int>()
        let third = ends.subscribe(quiet.signal.timeout(.seconds(1), clock: clock, completing: true))
        await clock.waitUntilSleeping()
        clock.advance(by: .seconds(1))
        #expect(await ends.next() == .completed)
        third.cancel()
    }

    @Test func cancellingTheSubscriptionCancelsEveryOperatorsWait() async {
        let clock = ManualClock()
        let subject = PassthroughSubject<Int>()
        let operators: [(Signal<Int>) -> Signal<Int>] = [
            { $0.debounce(for: .seconds(1), clock: clock) },
            { $0.throttle(for: .seconds(1), clock: clock, latest: true) },
            { $0.delay(for: .seconds(1), clock: clock) },
            { $0.timeout(.seconds(1), clock: clock) },
        ]
        for apply in operators {
            let probe = EventProbe<Int>()
            let subscription = probe.subscribe(apply(subject.signal))
            subject.send(7)
            await clock.waitUntilSleeping()
            subscription.cancel()
            #expect(clock.sleeperCount == 0)
            #expect(subject.subscriberCount == 0)
            clock.advance(by: .seconds(2))
            #expect(probe.received.filter { $0 != .value(7) }.isEmpty)   // throttle's first value went at once
        }
    }
}

struct TestFailure: Error, CustomStringConvertible {
    var description: String { "test failure" }
}
