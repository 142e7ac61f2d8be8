import Testing
import ReactorCore

/// The seed's two cold signals: `helloWorld` and the `joiner` built on it.
var helloWorld: Signal<String> {
    Signal<String> { subscriber in
        subscriber.send("Hello, ")
        subscriber.send("world!")
        subscriber.sendCompleted()
        return nil
    }
}

var joiner: Signal<String> {
    Signal<String> { subscriber in
        var strings: [String] = []
        return helloWorld.subscribe(next: { x in
            strings.append(x)
        }, error: { error in
            subscriber.send(error: error)
        }, completed: {
            subscriber.send(strings.joined())
            subscriber.sendCompleted()
        })
    }
}

@Suite struct SignalColdTests {
    @Test func helloWorldSendsTwoValuesThenCompletes() {
        let recorder = Recorder<String>()
        let subscription = recorder.subscribe(helloWorld)
        #expect(recorder.values == ["Hello, ", "world!"])
        #expect(recorder.isCompleted)
        #expect(recorder.events.count == 3)
        withExtendedLifetime(subscription) {}
    }

    @Test func joinerSendsTheJoinedStringOnceHelloWorldCompletes() {
        let recorder = Recorder<String>()
        let subscription = recorder.subscribe(joiner)
        #expect(recorder.values == ["Hello, world!"])
        #expect(recorder.isCompleted)
        #expect(recorder.events.count == 2)
        withExtendedLifetime(subscription) {}
    }

    @Test func joinerPassesOnAnUpstreamError() {
        let failing = Signal<String> { subscriber in
            subscriber.send("Hello")
            subscriber.send(error: SignalTestError(code: 7))
            return nil
        }
        let joined = Signal<String> { subscriber in
            var strings: [String] = []
            return failing.subscribe(next: { strings.append($0) },
                                     error: { subscriber.send(error: $0) },
                                     completed: { subscriber.send(strings.joined()) })
        }
        let recorder = Recorder<String>()
        let subscription = recorder.subscribe(joined)
        #expect(recorder.values.isEmpty)
        #expect(recorder.errors.first as? SignalTestError == SignalTestError(code: 7))
        withExtendedLifetime(subscription) {}
    }

    @Test func bodyRunsLazilyOncePerSubscriber() {
        var runs = 0
        let signal = Signal<Int> { subscriber in
            runs += 1
            subscriber.send(runs)
            return nil
        }
        #expect(runs == 0)
        let first = Recorder<Int>()
        let second = Recorder<Int>()
        let a = first.subscribe(signal)
        let b = second.subscribe(signal)
        #expect(runs == 2)
        #expect(first.values == [1])
        #expect(second.values == [2])
        withExtendedLifetime((a, b)) {}
    }

    @Test func nestedSubscriptionsCascadeUpLazily() {
        var upstreamRuns = 0
        let upstream = Signal<Int> { subscriber in
            upstreamRuns += 1
            subscriber.send(1)
            return nil
        }
        let downstream = Signal<Int> { subscriber in
            upstream.subscribe(next: { subscriber.send($0 + 1) })
        }
        #expect(upstreamRuns == 0)
        let recorder = Recorder<Int>()
        let subscription = recorder.subscribe(downstream)
        #expect(upstreamRuns == 1)
        #expect(recorder.values == [2])
        withExtendedLifetime(subscription) {}
    }

    @Test func subscribeWithoutHandlersIsAllowed() {
        var sent = false
        let signal = Signal<Int> { subscriber in
            subscriber.send(1)
            sent = true
            subscriber.sendCompleted()
            return nil
        }
        let subscription = signal.subscribe()
        #expect(sent)
        withExtendedLifetime(subscription) {}
    }
}

@Suite struct SignalTerminalTests {
    @Test func nothingIsDeliveredAfterCompletion() {
        let signal = Signal<Int> { subscriber in
            subscriber.send(1)
            subscriber.sendCompleted()
            subscriber.send(2)
            subscriber.send(error: SignalTestError())
            subscriber.sendCompleted()
            return nil
        }
        let recorder = Recorder<Int>()
        let subscription = recorder.subscribe(signal)
        #expect(recorder.values == [1])
        #expect(recorder.terminalCount == 1)
        #expect(recorder.isCompleted)
        withExtendedLifetime(subscription) {}
    }

    @Test func nothingIsDeliveredAfterAnError() {
        let signal = Signal<Int> { subscriber in
            subscriber.send(error: SignalTestError(code: 2))
            subscriber.send(2)
            subscriber.sendCompleted()
            return nil
        }
        let recorder = Recorder<Int>()
        let subscription = recorder.subscribe(signal)
        #expect(recorder.values.isEmpty)
        #expect(recorder.terminalCount == 1)
        #expect(recorder.errors.first as? SignalTestError == SignalTestError(code: 2))
        withExtendedLifetime(subscription) {}
    }

    @Test func terminationReleasesUpstreamAtOnce() {
        let subject = PassthroughSubject<Int>()
        var cleanups = 0
        let signal = Signal<Int> { subscriber in
            subject.signal.subscribe(next: { subscriber.send($0) }, completed: {
                subscriber.sendCompleted()
            }).chained { cleanups += 1 }
        }
        let recorder = Recorder<Int>()
        let subscription = recorder.subscribe(signal)
        #expect(subject.subscriberCount == 1)
        subject.sendCompleted()
        #expect(cleanups == 1)
        #expect(subject.subscriberCount == 0)
        subscription.cancel()
        #expect(cleanups == 1)
    }

    @Test func synchronousCompletionCancelsTheReturnedSubscriptionAtOnce() {
        var cleanups = 0
        let signal = Signal<Int> { subscriber in
            subscriber.sendCompleted()
            return Subscription { cleanups += 1 }
        }
        let subscription = signal.subscribe()
        #expect(cleanups == 1)
        subscription.cancel()
        #expect(cleanups == 1)
    }

    @Test func terminationReleasesTheSubscribersClosures() {
        let subject = PassthroughSubject<Int>()
        weak var weakToken: Token?
        let subscription: Subscription = {
            let token = Token()
            weakToken = token
            return subject.signal.map { $0 + token.value }.subscribe(next: { _ in _ = token })
        }()
        #expect(weakToken != nil)
        subject.sendCompleted()
        #expect(weakToken == nil)
        withExtendedLifetime(subscription) {}
    }
}

@Suite struct SignalSubscriptionTests {
    @Test func cancelIsIdempotentAndRunsCleanupExactlyOnce() {
        var cleanups = 0
        let subscription = Subscription { cleanups += 1 }
        #expect(!subscription.isCancelled)
        subscription.cancel()
        subscription.cancel()
        #expect(subscription.isCancelled)
        #expect(cleanups == 1)
    }

    @Test func releasingASubscriptionCancelsIt() {
        var cleanups = 0
        do {
            let subscription = Subscription { cleanups += 1 }
            #expect(!subscription.isCancelled)
        }
        #expect(cleanups == 1)
    }

    @Test func releasingAfterCancelDoesNotCleanUpTwice() {
        var cleanups = 0
        do {
            let subscription = Subscription { cleanups += 1 }
            subscription.cancel()
        }
        #expect(cleanups == 1)
    }

    @Test func cancelCascadesUpstreamThroughEveryStage() {
        var cleanups: [String] = []
        let source = Signal<Int> { _ in Subscription { cleanups.append("source") } }
        let middle = Signal<Int> { subscriber in
            source.subscribe(next: { subscriber.send($0) }).chained { cleanups.append("middle") }
        }
        let subscription = middle.map { $0 }.filter { _ in true }.subscribe()
        #expect(cleanups.isEmpty)
        subscription.cancel()
        #expect(cleanups == ["source", "middle"])
        subscription.cancel()
        #expect(cleanups.count == 2)
    }

    @Test func cancelStopsDeliveries() {
        let subject = PassthroughSubject<Int>()
        let recorder = Recorder<Int>()
        let subscription = recorder.subscribe(subject.signal)
        subject.send(1)
        subscription.cancel()
        subject.send(2)
        subject.sendCompleted()
        #expect(recorder.values == [1])
        #expect(recorder.terminalCount == 0)
    }

    @Test func cancellingFromInsideNextStopsLaterValues() {
        let subject = PassthroughSubject<Int>()
        var received: [Int] = []
        var subscription: Subscription?
        subscription = subject.signal.subscribe(next: { value in
            received.append(value)
            subscription?.cancel()
        })
        subject.send(1)
        subject.send(2)
        #expect(received == [1])
        #expect(subject.subscriberCount == 0)
    }

    @Test func cancelFreesEveryCapturedObject() {
        let subject = PassthroughSubject<Int>()
        weak var weakMapToken: Token?
        weak var weakSinkToken: Token?
        let subscription: Subscription = {
            let mapToken = Token(1)
            let sinkToken = Token(2)
            weakMapToken = mapToken
            weakSinkToken = sinkToken
            return subject.signal
                .map { $0 + mapToken.value }
                .filter { _ in true }
                .subscribe(next: { _ in _ = sinkToken })
        }()
        subject.send(1)
        #expect(weakMapToken != nil && weakSinkToken != nil)
        subscription.cancel()
        #expect(weakMapToken == nil)
        #expect(weakSinkToken == nil)
        #expect(subject.subscriberCount == 0)
    }

    @Test func closuresOfAPipelineEndedDuringADeliveryAreFreedAfterIt() {
        let subject = PassthroughSubject<Int>()
        weak var weakUpstreamToken: Token?
        weak var weakSinkToken: Token?
        let subscription: Subscription = {
            let upstreamToken = Token(1)
            let sinkToken = Token(2)
            weakUpstreamToken = upstreamToken
            weakSinkToken = sinkToken
            return subject.signal
                .map { $0 + upstreamToken.value }
                .take(1)  // completes inside the map stage's delivery
                .subscribe(next: { _ in _ = sinkToken })
        }()
        subject.send(1)
        #expect(weakUpstreamToken == nil)
        #expect(weakSinkToken == nil)
        #expect(subject.subscriberCount == 0)
        withExtendedLifetime(subscription) {}
    }

    @Test func aSubscriberCancellingItselfIsFreedAfterItsDelivery() {
        let subject = PassthroughSubject<Int>()
        weak var weakToken: Token?
        var received = 0
        var subscription: Subscription?
        do {
            let token = Token()
            weakToken = token
            subscription = subject.signal.subscribe(next: { _ in
                _ = token
                received += 1
                subscription?.cancel()
                subscription = nil  // releases the subscription while its closure runs
            })
        }
        subject.send(1)
        subject.send(2)
        #expect(received == 1)
        #expect(weakToken == nil)
    }

    @Test func releasedSubscriptionFreesEveryCapturedObject() {
        let subject = PassthroughSubject<Int>()
        weak var weakToken: Token?
        do {
            let token = Token()
            weakToken = token
            let subscription = subject.signal.scan(0) { $0 + $1 + token.value }.subscribe()
            withExtendedLifetime(subscription) {}
        }
        #expect(weakToken == nil)
        #expect(subject.subscriberCount == 0)
    }

    @Test func aSubjectIsFreedWithItsLastReference() {
        weak var weakSubject: PassthroughSubject<Int>?
        let subscription: Subscription = {
            let subject = PassthroughSubject<Int>()
            weakSubject = subject
            return subject.signal.subscribe()
        }()
        #expect(weakSubject == nil)
        withExtendedLifetime(subscription) {}
    }
}

extension Subscription {
    /// A subscription that cancels this one, then runs `cleanup`.
    func chained(_ cleanup: @escaping () -> Void) -> Subscription {
        Subscription {
            self.cancel()
            cleanup()
        }
    }
}
