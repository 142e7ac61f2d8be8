import Testing
import ReactorCore

@Suite struct SubjectPassthroughTests {
    @Test func sendsToCurrentSubscribersOnly() {
        let subject = PassthroughSubject<Int>()
        subject.send(0)  // no one listening: lost
        let early = Recorder<Int>()
        let a = early.subscribe(subject.signal)
        subject.send(1)
        let late = Recorder<Int>()
        let b = late.subscribe(subject.signal)
        subject.send(2)
        #expect(early.values == [1, 2])
        #expect(late.values == [2])
        withExtendedLifetime((a, b)) {}
    }

    @Test func completionReachesEveryoneAndEndsTheSubject() {
        let subject = PassthroughSubject<Int>()
        let recorder = Recorder<Int>()
        let subscription = recorder.subscribe(subject.signal)
        subject.sendCompleted()
        subject.send(1)
        subject.send(error: SignalTestError())
        #expect(recorder.values.isEmpty)
        #expect(recorder.isCompleted)
        #expect(recorder.terminalCount == 1)
        #expect(subject.subscriberCount == 0)
        withExtendedLifetime(subscription) {}
    }

    @Test func lateSubscriberAfterAnErrorGetsTheError() {
        let subject = PassthroughSubject<Int>()
        subject.send(error: SignalTestError(code: 3))
        let recorder = Recorder<Int>()
        let subscription = recorder.subscribe(subject.signal)
        #expect(recorder.errors.first as? SignalTestError == SignalTestError(code: 3))
        #expect(recorder.terminalCount == 1)
        withExtendedLifetime(subscription) {}
    }

    @Test func subscriberAddedDuringDeliveryWaitsForTheNextValue() {
        let subject = PassthroughSubject<Int>()
        let inner = Recorder<Int>()
        var innerSubscription: Subscription?
        let outer = subject.signal.subscribe(next: { _ in
            if innerSubscription == nil { innerSubscription = inner.subscribe(subject.signal) }
        })
        subject.send(1)
        subject.send(2)
        #expect(inner.values == [2])
        withExtendedLifetime(outer) {}
    }

    @Test func reentrantSendIsDeliveredInOrder() {
        let subject = PassthroughSubject<Int>()
        var received: [Int] = []
        let subscription = subject.signal.subscribe(next: { value in
            received.append(value)
            if value == 1 { subject.send(2) }
        })
        subject.send(1)
        #expect(received == [1, 2])
        withExtendedLifetime(subscription) {}
    }
}

@Suite struct SubjectBehaviorTests {
    @Test func newSubscriberGetsTheLatestValueFirst() {
        let subject = BehaviorSubject(value: 1)
        let first = Recorder<Int>()
        let a = first.subscribe(subject.signal)
        subject.send(2)
        let second = Recorder<Int>()
        let b = second.subscribe(subject.signal)
        subject.send(3)
        #expect(first.values == [1, 2, 3])
        #expect(second.values == [2, 3])
        #expect(subject.value == 3)
        withExtendedLifetime((a, b)) {}
    }

    @Test func afterCompletionALateSubscriberGetsOnlyTheCompletion() {
        let subject = BehaviorSubject(value: "a")
        subject.sendCompleted()
        subject.send("b")
        let recorder = Recorder<String>()
        let subscription = recorder.subscribe(subject.signal)
        #expect(recorder.values.isEmpty)
        #expect(recorder.isCompleted)
        #expect(subject.value == "a")
        withExtendedLifetime(subscription) {}
    }

    @Test func readingValueInsideAComputationDependsOnTheSubject() {
        let reactor = Reactor(scheduler: .manual)
        let subject = BehaviorSubject(value: 1)
        var seen: [Int] = []
        let computation = reactor.autorun { _ in seen.append(subject.value) }
        subject.send(2)
        reactor.flush()
        #expect(seen == [1, 2])
        computation.stop()
    }
}

@Suite struct SubjectReplayTests {
    @Test func replaysEverythingByDefault() {
        let subject = ReplaySubject<Int>()
        subject.send(1)
        subject.send(2)
        let recorder = Recorder<Int>()
        let subscription = recorder.subscribe(subject.signal)
        subject.send(3)
        #expect(recorder.values == [1, 2, 3])
        #expect(subject.bufferedValues == [1, 2, 3])
        withExtendedLifetime(subscription) {}
    }

    @Test func replaysOnlyTheLastBufferSizeValues() {
        let subject = ReplaySubject<Int>(bufferSize: 2)
        for value in 1...5 { subject.send(value) }
        let recorder = Recorder<Int>()
        let subscription = recorder.subscribe(subject.signal)
        #expect(recorder.values == [4, 5])
        subject.send(6)
        #expect(subject.bufferedValues == [5, 6])
        withExtendedLifetime(subscription) {}
    }

    @Test func bufferSizeZeroReplaysNothing() {
        let subject = ReplaySubject<Int>(bufferSize: 0)
        subject.send(1)
        let recorder = Recorder<Int>()
        let subscription = recorder.subscribe(subject.signal)
        subject.send(2)
        #expect(recorder.values == [2])
        withExtendedLifetime(subscription) {}
    }

    @Test func lateSubscriberAfterCompletionGetsTheValuesThenTheCompletion() {
        let subject = ReplaySubject<String>(bufferSize: 3)
        subject.send("a")
        subject.send("b")
        subject.sendCompleted()
        subject.send("c")
        let recorder = Recorder<String>()
        let subscription = recorder.subscribe(subject.signal)
        #expect(recorder.values == ["a", "b"])
        #expect(recorder.isCompleted)
        #expect(recorder.events.count == 3)
        withExtendedLifetime(subscription) {}
    }

    @Test func lateSubscriberAfterAnErrorGetsTheValuesThenTheError() {
        let subject = ReplaySubject<Int>()
        subject.send(1)
        subject.send(error: SignalTestError(code: 9))
        let recorder = Recorder<Int>()
        let subscription = recorder.subscribe(subject.signal)
        #expect(recorder.values == [1])
        #expect(recorder.errors.first as? SignalTestError == SignalTestError(code: 9))
        withExtendedLifetime(subscription) {}
    }

    @Test func subscriberThatStopsDuringReplayIsNotRegistered() {
        let subject = ReplaySubject<Int>()
        for value in 1...5 { subject.send(value) }
        let recorder = Recorder<Int>()
        let subscription = recorder.subscribe(subject.signal.take(2))
        #expect(recorder.values == [1, 2])
        #expect(recorder.isCompleted)
        #expect(subject.subscriberCount == 0)
        withExtendedLifetime(subscription) {}
    }
}

@Suite struct SubjectAsyncTests {
    @Test func sendsNothingUntilCompletionThenTheLastValue() {
        let subject = AsyncSubject<Int>()
        let recorder = Recorder<Int>()
        let subscription = recorder.subscribe(subject.signal)
        subject.send(1)
        subject.send(2)
        #expect(recorder.events.isEmpty)
        subject.sendCompleted()
        #expect(recorder.values == [2])
        #expect(recorder.isCompleted)
        #expect(recorder.events.count == 2)
        withExtendedLifetime(subscription) {}
    }

    @Test func lateSubscriberAfterCompletionGetsTheLastValueAndTheCompletion() {
        let subject = AsyncSubject<String>()
        subject.send("result")
        subject.sendCompleted()
        subject.send("ignored")
        let recorder = Recorder<String>()
        let subscription = recorder.subscribe(subject.signal)
        #expect(recorder.values == ["result"])
        #expect(recorder.isCompleted)
        let again = Recorder<String>()
        let second = again.subscribe(subject.signal)
        #expect(again.values == ["result"])
        withExtendedLifetime((subscription, second)) {}
    }

    @Test func completionWithoutAValueSendsOnlyTheCompletion() {
        let subject = AsyncSubject<Int>()
        subject.sendCompleted()
        let recorder = Recorder<Int>()
        let subscription = recorder.subscribe(subject.signal)
        #expect(recorder.values.isEmpty)
        #expect(recorder.isCompleted)
        withExtendedLifetime(subscription) {}
    }

    @Test func anErrorSendsNoValueNowOrLater() {
        let subject = AsyncSubject<Int>()
        let early = Recorder<Int>()
        let a = early.subscribe(subject.signal)
        subject.send(1)
        subject.send(error: SignalTestError(code: 4))
        let late = Recorder<Int>()
        let b = late.subscribe(subject.signal)
        for recorder in [early, late] {
            #expect(recorder.values.isEmpty)
            #expect(recorder.errors.first as? SignalTestError == SignalTestError(code: 4))
        }
        withExtendedLifetime((a, b)) {}
    }
}
