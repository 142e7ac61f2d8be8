import Dispatch
import Testing
import ReactorCore

/// A cold signal of `values`, then completion.
func just<Value>(_ values: Value...) -> Signal<Value> {
    Signal { subscriber in
        for value in values { subscriber.send(value) }
        subscriber.sendCompleted()
        return nil
    }
}

/// A cold signal of `values`, then `error`.
func failing<Value>(_ values: Value..., error: SignalTestError = SignalTestError()) -> Signal<Value> {
    Signal { subscriber in
        for value in values { subscriber.send(value) }
        subscriber.send(error: error)
        return nil
    }
}

/// Records what `signal` sends synchronously.
func record<Value>(_ signal: Signal<Value>) -> Recorder<Value> {
    let recorder = Recorder<Value>()
    let subscription = recorder.subscribe(signal)
    withExtendedLifetime(subscription) {}
    return recorder
}

@Suite struct SignalOperatorTests {
    /// The ReactiveCocoa README's username pipeline.
    @Test func readmeUsernamePipeline() {
        let username = ReactiveProperty(initialValue: "")
        var greetings = 0
        let subscription = username.asStream()
            .skip(1)  // RACAble sends changes only, not the initial value
            .distinctUntilChanged()
            .take(3)
            .filter { $0 == "joshaber" }
            .subscribe(next: { _ in greetings += 1 })
        username.value = "jo"
        username.value = "jo"        // not distinct
        username.value = "joshaber"  // second distinct: "Hi me!"
        #expect(greetings == 1)
        username.value = "joshaber"  // not distinct
        username.value = "someone"   // third distinct: take(3) completes
        username.value = "joshaber"  // after completion: nothing
        #expect(greetings == 1)
        #expect(username.subscriberCount == 0)
        withExtendedLifetime(subscription) {}
    }

    @Test func mapTransformsValuesAndPassesOnTerminalEvents() {
        let mapped = record(just(1, 2, 3).map { "\($0 * 2)" })
        #expect(mapped.values == ["2", "4", "6"])
        #expect(mapped.isCompleted)
        let failed = record(failing(1).map { $0 + 1 })
        #expect(failed.values == [2])
        #expect(failed.errors.count == 1)
    }

    @Test func filterKeepsMatchingValues() {
        let filtered = record(just(1, 2, 3, 4).filter { $0.isMultiple(of: 2) })
        #expect(filtered.values == [2, 4])
        #expect(filtered.isCompleted)
        #expect(record(failing(1).filter { _ in false }).errors.count == 1)
    }

    @Test func compactMapDropsNils() {
        let parsed = record(just("1", "x", "3").compactMap { Int($0) })
        #expect(parsed.values == [1, 3])
        #expect(parsed.isCompleted)
        #expect(record(failing("1").compactMap { Int($0) }).errors.count == 1)
    }

    @Test func distinctUntilChangedDropsRepeats() {
        let distinct = record(just(1, 1, 2, 2, 1, 3, 3).distinctUntilChanged())
        #expect(distinct.values == [1, 2, 1, 3])
        #expect(distinct.isCompleted)
        let byKey = record(just("a", "A", "b").distinctUntilChanged { $0.lowercased() == $1.lowercased() })
        #expect(byKey.values == ["a", "b"])
        #expect(record(failing(1, 1).distinctUntilChanged()).errors.count == 1)
    }

    @Test func distinctUntilChangedKeepsStatePerSubscriber() {
        let subject = PassthroughSubject<Int>()
        let distinct = subject.signal.distinctUntilChanged()
        let first = Recorder<Int>()
        let a = first.subscribe(distinct)
        subject.send(1)
        let second = Recorder<Int>()
        let b = second.subscribe(distinct)
        subject.send(1)
        #expect(first.values == [1])
        #expect(second.values == [1])
        withExtendedLifetime((a, b)) {}
    }

    @Test func takeCompletesAfterCountAndCancelsUpstream() {
        let subject = PassthroughSubject<Int>()
        let recorder = Recorder<Int>()
        let subscription = recorder.subscribe(subject.signal.take(2))
        subject.send(1)
        subject.send(2)
        subject.send(3)
        #expect(recorder.values == [1, 2])
        #expect(recorder.isCompleted)
        #expect(subject.subscriberCount == 0)
        withExtendedLifetime(subscription) {}
    }

    @Test func takeZeroCompletesWithoutSubscribing() {
        var subscribed = false
        let source = Signal<Int> { _ in subscribed = true; return nil }
        let recorder = record(source.take(0))
        #expect(recorder.isCompleted)
        #expect(!subscribed)
    }

    @Test func takePassesOnEarlyTerminalEvents() {
        let short = record(just(1).take(5))
        #expect(short.values == [1])
        #expect(short.terminalCount == 1)
        #expect(record(failing(1).take(5)).errors.count == 1)
    }

    @Test func skipDropsTheFirstValues() {
        let skipped = record(just(1, 2, 3, 4).skip(2))
        #expect(skipped.values == [3, 4])
        #expect(skipped.isCompleted)
        #expect(record(failing(1).skip(1)).errors.count == 1)
    }

    @Test func scanSendsEachAccumulation() {
        let sums = record(just(1, 2, 3).scan(10) { $0 + $1 })
        #expect(sums.values == [11, 13, 16])
        #expect(sums.isCompleted)
        let failed = record(failing(1).scan(0, +))
        #expect(failed.values == [1])
        #expect(failed.errors.count == 1)
    }

    @Test func collectSendsOneArrayOnCompletion() {
        let subject = PassthroughSubject<Int>()
        let recorder = Recorder<[Int]>()
        let subscription = recorder.subscribe(subject.signal.collect())
        subject.send(1)
        subject.send(2)
        #expect(recorder.events.isEmpty)
        subject.sendCompleted()
        #expect(recorder.values == [[1, 2]])
        #expect(recorder.isCompleted)
        let failed = record(failing(1, 2).collect())
        #expect(failed.values.isEmpty)
        #expect(failed.errors.count == 1)
        withExtendedLifetime(subscription) {}
    }

    @Test func collectCountSendsChunksAndTheRest() {
        let chunks = record(just(1, 2, 3, 4, 5).collect(2))
        #expect(chunks.values == [[1, 2], [3, 4], [5]])
        #expect(chunks.isCompleted)
    }

    @Test func mergeInterleavesAndCompletesWhenAllHave() {
        let a = PassthroughSubject<Int>()
        let b = PassthroughSubject<Int>()
        let recorder = Recorder<Int>()
        let subscription = recorder.subscribe(a.signal.merge(with: b.signal))
        a.send(1)
        b.send(2)
        a.send(3)
        a.sendCompleted()
        #expect(!recorder.isCompleted)
        b.send(4)
        b.sendCompleted()
        #expect(recorder.values == [1, 2, 3, 4])
        #expect(recorder.isCompleted)
        withExtendedLifetime(subscription) {}
    }

    @Test func mergeEndsOnTheFirstErrorAndCancelsTheOthers() {
        let a = PassthroughSubject<Int>()
        let b = PassthroughSubject<Int>()
        let recorder = Recorder<Int>()
        let subscription = recorder.subscribe(Signal.merge(a.signal, b.signal))
        a.send(error: SignalTestError())
        b.send(1)
        #expect(recorder.values.isEmpty)
        #expect(recorder.errors.count == 1)
        #expect(b.subscriberCount == 0)
        #expect(record(Signal<Int>.merge([])).isCompleted)
        withExtendedLifetime(subscription) {}
    }

    @Test func combineLatestPairsLatestValues() {
        let a = PassthroughSubject<Int>()
        let b = PassthroughSubject<String>()
        var pairs: [String] = []
        var completed = false
        let subscription = a.signal.combineLatest(b.signal).subscribe(
            next: { pairs.append("\($0.0)\($0.1)") }, completed: { completed = true })
        a.send(1)
        #expect(pairs.isEmpty)
        b.send("x")
        a.send(2)
        b.send("y")
        #expect(pairs == ["1x", "2x", "2y"])
        a.sendCompleted()
        #expect(!completed)
        b.send("z")
        b.sendCompleted()
        #expect(pairs == ["1x", "2x", "2y", "2z"])
        #expect(completed)
        withExtendedLifetime(subscription) {}
    }

    @Test func combineLatestCompletesWhenOneCompletesEmptyAndPassesOnErrors() {
        let a = PassthroughSubject<Int>()
        let b = PassthroughSubject<Int>()
        let recorder = Recorder<(Int, Int)>()
        let subscription = recorder.subscribe(a.signal.combineLatest(b.signal))
        a.send(1)
        b.sendCompleted()
        #expect(recorder.isCompleted)
        #expect(a.subscriberCount == 0)
        let failed = record(just(1).combineLatest(failing(2)))
        #expect(failed.values.map { $0.1 } == [2])
        #expect(failed.errors.count == 1)
        withExtendedLifetime(subscription) {}
    }

    @Test func flatMapLatestFollowsOnlyTheLatestInnerSignal() {
        let outer = PassthroughSubject<Int>()
        let inners = [PassthroughSubject<String>(), PassthroughSubject<String>()]
        let recorder = Recorder<String>()
        let subscription = recorder.subscribe(outer.signal.flatMapLatest { inners[$0].signal })
        outer.send(0)
        inners[0].send("a")
        outer.send(1)
        #expect(inners[0].subscriberCount == 0)
        inners[0].send("ignored")
        inners[1].send("b")
        outer.sendCompleted()
        #expect(!recorder.isCompleted)
        inners[1].sendCompleted()
        #expect(recorder.values == ["a", "b"])
        #expect(recorder.isCompleted)
        withExtendedLifetime(subscription) {}
    }

    @Test func flatMapLatestCompletesWithSynchronousInnersAndPassesOnErrors() {
        let recorder = record(just(1, 2).flatMapLatest { just($0, $0 * 10) })
        #expect(recorder.values == [1, 10, 2, 20])
        #expect(recorder.isCompleted)
        let failed = record(just(1).flatMapLatest { _ in failing("x") })
        #expect(failed.values == ["x"])
        #expect(failed.errors.count == 1)
    }

    @Test func flatMapLatestCancelCancelsTheInnerSignal() {
        let outer = PassthroughSubject<Int>()
        let inner = PassthroughSubject<Int>()
        let subscription = outer.signal.flatMapLatest { _ in inner.signal }.subscribe()
        outer.send(0)
        #expect(inner.subscriberCount == 1)
        subscription.cancel()
        #expect(inner.subscriberCount == 0)
        #expect(outer.subscriberCount == 0)
    }

    @Test func startWithSendsItsValuesFirst() {
        let recorder = record(just(3, 4).startWith(1, 2))
        #expect(recorder.values == [1, 2, 3, 4])
        #expect(recorder.isCompleted)
        #expect(record(failing(2).startWith(1)).errors.count == 1)
        let taken = record(just(3).startWith(1, 2).take(1))
        #expect(taken.values == [1])
    }

    @Test func observeOnDeliversOnTheQueueInOrder() {
        let queue = DispatchQueue(label: "observe-on-test")
        let key = DispatchSpecificKey<Bool>()
        queue.setSpecific(key: key, value: true)
        var received: [Int] = []
        var onQueue = true
        var completed = false
        queue.suspend()
        let subscription = just(1, 2, 3).observe(on: queue).subscribe(
            next: { received.append($0); onQueue = onQueue && DispatchQueue.getSpecific(key: key) == true },
            completed: { completed = true })
        #expect(received.isEmpty)  // nothing is delivered synchronously
        queue.resume()
        queue.sync {}
        #expect(received == [1, 2, 3])
        #expect(completed)
        #expect(onQueue)
        withExtendedLifetime(subscription) {}
    }

    @Test func observeOnDropsEventsQueuedBeforeCancel() {
        let queue = DispatchQueue(label: "observe-on-cancel")
        let subject = PassthroughSubject<Int>()
        var received: [Int] = []
        let subscription = subject.signal.observe(on: queue).subscribe(next: { received.append($0) })
        queue.suspend()
        subject.send(1)
        subscription.cancel()
        queue.resume()
        queue.sync {}
        #expect(received.isEmpty)
        let errors = Recorder<Int>()
        let failedSubscription = errors.subscribe(failing(1).observe(on: queue))
        queue.sync {}
        #expect(errors.values == [1])
        #expect(errors.errors.count == 1)
        withExtendedLifetime(failedSubscription) {}
    }
}
