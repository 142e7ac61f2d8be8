import Testing
import ReactorCore

/// Every MVP line of the ReactiveProperty specification, plus its place in the graph.
@Suite struct ReactivePropertyTests {
    @Test func anonymousPropertyHoldsItsInitialValue() {
        let property = ReactiveProperty(initialValue: 10)
        #expect(property.value == 10)
    }

    @Test func externalPropertyHoldsItsInitialValueAndDoesNotWriteIt() {
        var written: [Int] = []
        let property = ReactiveProperty(initialValue: 10, externalWrite: { written.append($0) })
        #expect(property.value == 10)
        #expect(written.isEmpty)
    }

    @Test func valueCanBeChanged() {
        let property = ReactiveProperty(initialValue: 10)
        property.value = 100
        #expect(property.value == 100)
    }

    @Test func subscribeDeliversTheCurrentValueAtOnce() {
        let property = ReactiveProperty(initialValue: 10)
        var received: [Int] = []
        let subscription = property.subscribe { received.append($0) }
        #expect(received == [10])
        withExtendedLifetime(subscription) {}
    }

    @Test func changesPropagateToAllObservers() {
        let property = ReactiveProperty(initialValue: "a")
        var first: [String] = []
        var second: [String] = []
        let one = property.subscribe { first.append($0) }
        let two = property.subscribe { second.append($0) }
        property.value = "b"
        property.value = "b"  // didSet semantics: every write notifies
        #expect(first == ["a", "b", "b"])
        #expect(second == ["a", "b", "b"])
        withExtendedLifetime((one, two)) {}
    }

    @Test func externalWriteRunsBeforeObserversAreTold() {
        var log: [String] = []
        let property = ReactiveProperty(initialValue: 1, externalWrite: { log.append("write \($0)") })
        let subscription = property.subscribe { log.append("observe \($0)") }
        property.value = 2
        #expect(log == ["observe 1", "write 2", "observe 2"])
        withExtendedLifetime(subscription) {}
    }

    @Test func cancelledObserverHearsNothingMore() {
        let property = ReactiveProperty(initialValue: 1)
        var received: [Int] = []
        let subscription = property.subscribe { received.append($0) }
        property.value = 2
        subscription.cancel()
        property.value = 3
        #expect(received == [1, 2])
        #expect(property.subscriberCount == 0)
    }

    @Test func releasedSubscriptionStopsObserving() {
        let property = ReactiveProperty(initialValue: 1)
        var received: [Int] = []
        do {
            let subscription = property.subscribe { received.append($0) }
            withExtendedLifetime(subscription) { property.value = 2 }
        }
        property.value = 3
        #expect(received == [1, 2])
    }

    @Test func asStreamSendsCurrentThenNewValues() {
        let property = ReactiveProperty(initialValue: 1)
        let recorder = Recorder<Int>()
        let subscription = recorder.subscribe(property.asStream().map { $0 * 10 })
        property.value = 2
        property.value = 3
        #expect(recorder.values == [10, 20, 30])
        #expect(!recorder.isCompleted)
        withExtendedLifetime(subscription) {}
    }

    @Test func asStreamIsColdPerSubscriber() {
        let property = ReactiveProperty(initialValue: 1)
        let stream = property.asStream()
        let early = Recorder<Int>()
        let a = early.subscribe(stream)
        property.value = 2
        let late = Recorder<Int>()
        let b = late.subscribe(stream)
        property.value = 3
        #expect(early.values == [1, 2, 3])
        #expect(late.values == [2, 3])
        withExtendedLifetime((a, b)) {}
    }

    @Test func readingValueInsideAComputationDependsOnIt() {
        let reactor = Reactor(scheduler: .manual)
        let property = ReactiveProperty(initialValue: 1)
        var seen: [Int] = []
        let computation = reactor.autorun { _ in seen.append(property.value) }
        property.value = 5
        #expect(seen == [1])
        reactor.flush()
        #expect(seen == [1, 5])
        computation.stop()
        property.value = 6
        reactor.flush()
        #expect(seen == [1, 5])
    }

    @Test func writeInvalidatesAfterExternalWriteAndObservers() {
        let reactor = Reactor()
        var log: [String] = []
        let property = ReactiveProperty(initialValue: 0, externalWrite: { log.append("write \($0)") })
        let subscription = property.subscribe { log.append("observe \($0)") }
        let computation = reactor.autorun { _ in log.append("autorun \(property.value)") }
        property.value = 1
        #expect(log == ["observe 0", "autorun 0", "write 1", "observe 1", "autorun 1"])
        computation.stop()
        withExtendedLifetime(subscription) {}
    }

    @Test func observerClosuresAreReleasedAfterCancel() {
        let property = ReactiveProperty(initialValue: 0)
        weak var weakToken: Token?
        let subscription: Subscription = {
            let token = Token()
            weakToken = token
            return property.subscribe { _ in _ = token }
        }()
        #expect(weakToken != nil)
        subscription.cancel()
        #expect(weakToken == nil)
    }
}
