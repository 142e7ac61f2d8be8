import Testing
import ReactorCore

/// A stand-in for a view with a label.
final class Label {
    var text = ""
    var subscription: Subscription?
}

@Suite struct SignalBindingTests {
    @Test func bindToPropertyWritesEveryValue() {
        let source = PassthroughSubject<String>()
        let property = ReactiveProperty(initialValue: "")
        var seen: [String] = []
        let observer = property.subscribe { seen.append($0) }
        let binding = source.signal.bind(to: property)
        source.send("a")
        source.send("b")
        #expect(property.value == "b")
        #expect(seen == ["", "a", "b"])
        binding.cancel()
        source.send("c")
        #expect(property.value == "b")
        withExtendedLifetime(observer) {}
    }

    @Test func bindToPropertyDrivesComputations() {
        let reactor = Reactor()
        let source = PassthroughSubject<Int>()
        let property = ReactiveProperty(initialValue: 0)
        var runs: [Int] = []
        let computation = reactor.autorun { _ in runs.append(property.value) }
        let binding = source.signal.map { $0 * 2 }.bind(to: property)
        source.send(2)
        #expect(runs == [0, 4])
        computation.stop()
        withExtendedLifetime(binding) {}
    }

    @Test func bindToKeyPathWritesEveryValue() {
        let label = Label()
        let username = ReactiveProperty(initialValue: "ada")
        let binding = username.asStream().map { $0.uppercased() }.bind(to: label, \.text)
        #expect(label.text == "ADA")
        username.value = "grace"
        #expect(label.text == "GRACE")
        binding.cancel()
        username.value = "alan"
        #expect(label.text == "GRACE")
    }

    @Test func objectOwningItsBindingIsFreed() {
        let source = PassthroughSubject<String>()
        weak var weakLabel: Label?
        do {
            let label = Label()
            weakLabel = label
            label.subscription = source.signal.bind(to: label, \.text)
            source.send("x")
            #expect(label.text == "x")
        }
        #expect(weakLabel == nil)
        #expect(source.subscriberCount == 0)
    }

    @Test func bindingDoesNotKeepThePropertyAlive() {
        let source = PassthroughSubject<Int>()
        weak var weakProperty: ReactiveProperty<Int>?
        let binding: Subscription = {
            let property = ReactiveProperty(initialValue: 0)
            weakProperty = property
            return source.signal.bind(to: property)
        }()
        #expect(weakProperty == nil)
        source.send(1)  // nothing to write into: ignored
        withExtendedLifetime(binding) {}
    }
}

@Suite struct SignalBridgeTests {
    final class Person {
        @Reactive var name = "Ada"
        @Reactive var age = 36
    }

    @Test func emitsAtOnceAndEachTimeTheExpressionChanges() {
        let reactor = Reactor()
        let person = Person()
        let recorder = Recorder<String>()
        let subscription = recorder.subscribe(reactor.signal { "\(person.name) \(person.age)" })
        #expect(recorder.values == ["Ada 36"])
        person.age = 37
        person.name = "Grace"
        #expect(recorder.values == ["Ada 36", "Ada 37", "Grace 37"])
        subscription.cancel()
        person.age = 38
        #expect(recorder.values.count == 3)
    }

    @Test func equalValuesAreNotSentAgain() {
        let reactor = Reactor()
        let person = Person()
        let recorder = Recorder<Bool>()
        let subscription = recorder.subscribe(reactor.signal { person.age >= 18 })
        person.age = 40
        person.age = 10
        #expect(recorder.values == [true, false])
        withExtendedLifetime(subscription) {}
    }

    @Test func batchedWritesEmitOnce() {
        let reactor = Reactor()
        let person = Person()
        let recorder = Recorder<String>()
        let subscription = recorder.subscribe(reactor.signal { "\(person.name) \(person.age)" })
        reactor.batch {
            person.name = "Grace"
            person.age = 85
        }
        #expect(recorder.values == ["Ada 36", "Grace 85"])
        withExtendedLifetime(subscription) {}
    }

    @Test func eachSubscriberRunsItsOwnAutorunAndCancelStopsIt() {
        let reactor = Reactor()
        let property = ReactiveProperty(initialValue: 1)
        var evaluations = 0
        let signal = reactor.signal { () -> Int in
            evaluations += 1
            return property.value
        }
        #expect(evaluations == 0)  // lazy
        let a = signal.subscribe()
        let b = signal.subscribe()
        #expect(evaluations == 2)
        property.value = 2
        #expect(evaluations == 4)
        a.cancel()
        b.cancel()
        property.value = 3
        #expect(evaluations == 4)
    }

    @Test func subscribersAreNotTrackedByTheBridgeAutorun() {
        let reactor = Reactor()
        let source = ReactiveProperty(initialValue: 1)
        let other = ReactiveProperty(initialValue: 100)
        var evaluations = 0
        let subscription = reactor.signal { () -> Int in
            evaluations += 1
            return source.value
        }.subscribe(next: { _ in _ = other.value })
        other.value = 101
        #expect(evaluations == 1)
        source.value = 2
        #expect(evaluations == 2)
        withExtendedLifetime(subscription) {}
    }

    @Test func aSignalCanFeedAComputationThatFeedsASignal() {
        let reactor = Reactor()
        let input = PassthroughSubject<Int>()
        let property = ReactiveProperty(initialValue: 0)
        let binding = input.signal.bind(to: property)
        let doubled = Recorder<Int>()
        let output = doubled.subscribe(reactor.signal { property.value * 2 })
        input.send(5)
        input.send(7)
        #expect(doubled.values == [0, 10, 14])
        withExtendedLifetime((binding, output)) {}
    }

    @Test func cancelReleasesTheAutorunAndItsCaptures() {
        let reactor = Reactor()
        let property = ReactiveProperty(initialValue: 0)
        weak var weakToken: Token?
        let subscription: Subscription = {
            let token = Token(5)
            weakToken = token
            return reactor.signal { property.value + token.value }.subscribe()
        }()
        #expect(weakToken != nil)
        subscription.cancel()
        #expect(weakToken == nil)
    }
}
