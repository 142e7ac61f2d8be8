import Dispatch
import Testing
import ReactorCore

/// Compiles the DESIGN.md contract for signals, properties and stores exactly
/// as written, and checks each piece does what the contract says in one line.
@Suite struct SignalContractTests {
    @Test func reactivePropertyContract() {
        let make: (Int) -> ReactiveProperty<Int> = ReactiveProperty<Int>.init(initialValue:)
        let makeExternal: (Int, @escaping (Int) -> Void) -> ReactiveProperty<Int> =
            ReactiveProperty<Int>.init(initialValue:externalWrite:)
        let property = make(1)
        var written: [Int] = []
        let external = makeExternal(2) { written.append($0) }
        property.value = 3
        external.value = 4
        let subscription: Subscription = property.subscribe(next: { _ in })
        let stream: Signal<Int> = property.asStream()
        #expect(property.value == 3 && written == [4])
        withExtendedLifetime((subscription, stream)) {}
    }

    @Test func signalObserverAndSubscriptionContract() {
        let signal = Signal<Int>({ (observer: Observer<Int>) -> Subscription? in
            observer.send(1)
            observer.send(error: SignalTestError())
            observer.sendCompleted()
            return Subscription()
        })
        var events = 0
        let subscription: Subscription = signal.subscribe(next: { _ in events += 1 },
                                                          error: { _ in events += 1 },
                                                          completed: { events += 1 })
        let bare = Subscription({})
        bare.cancel()
        #expect(events == 2)
        #expect(bare.isCancelled && !subscription.isCancelled)
    }

    @Test func subjectContract() {
        let passthrough = PassthroughSubject<Int>()
        let behavior = BehaviorSubject<Int>(value: 0)
        let replay = ReplaySubject<Int>(bufferSize: 2)
        let replayAll = ReplaySubject<Int>()
        let async = AsyncSubject<Int>()
        passthrough.send(1); passthrough.send(error: SignalTestError()); passthrough.sendCompleted()
        behavior.send(1); behavior.sendCompleted()
        replay.send(1); replay.sendCompleted()
        replayAll.send(1); replayAll.sendCompleted()
        async.send(1); async.sendCompleted()
        let signals: [Signal<Int>] = [passthrough.signal, behavior.signal, replay.signal, replayAll.signal, async.signal]
        let completions = signals.map { record($0) }.filter(\.isCompleted).count
        #expect(completions == 4)  // the passthrough failed first
    }

    @Test func operatorContract() {
        let source = just(1, 2, 2, 3)
        let other = just(10)
        let pipeline: Signal<[Int]> = source
            .map { $0 }
            .filter { _ in true }
            .compactMap { Optional($0) }
            .distinctUntilChanged()
            .take(10)
            .skip(0)
            .scan(0, +)
            .merge(with: other)
            .combineLatest(just("x"))
            .flatMapLatest { pair in just(pair.0) }
            .startWith(0)
            .collect()
        #expect(record(pipeline).values.count == 1)
        let queued = just(1).observe(on: DispatchQueue(label: "contract"))
        withExtendedLifetime(queued) {}
    }

    @Test func bindingAndBridgeContract() {
        final class Box { var value = 0 }
        let property = ReactiveProperty(initialValue: 0)
        let box = Box()
        let toProperty: Subscription = just(1).bind(to: property)
        let toKeyPath: Subscription = just(2).bind(to: box, \.value)
        let bridged: Signal<Int> = Reactor.shared.signal { property.value }
        #expect(property.value == 1 && box.value == 2)
        withExtendedLifetime((toProperty, toKeyPath, bridged)) {}
    }

    @Test func storeContract() {
        let store = Store(name: "contract", reactor: .shared)
        let plain = Store()
        let result: Int = store.action("a", 1, name: "custom") { 42 }
        var actions: [Action] = []
        let one: Subscription = store.subscribe { actions.append($0) }
        let all: Subscription = Store.subscribeToAllStores { _ in }
        store.action { }
        let action: Action = actions[0]
        let (owner, name, arguments): (Store, String, [Any]) = (action.store, action.name, action.arguments)
        #expect(result == 42 && owner === store && name == "storeContract()" && arguments.isEmpty)
        withExtendedLifetime((plain, one, all)) {}
    }
}
