#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Testing
import ReactorCore
import Synchronization

/// Watches one subscriber's deliveries: counts them and notes any delivery
/// that starts while another to the same subscriber is still running.
final class DeliveryProbe: @unchecked Sendable {
    // @unchecked Sendable: `inside` and the counts are touched only inside
    // deliveries; an overlap is exactly what the test looks for, so `inside`
    // is atomic and the rest is checked under ThreadSanitizer.
    let inside = AtomicCounter()
    let overlaps = AtomicCounter()
    var count = 0
    var sum = 0

    func receive(_ value: Int) {
        inside.increment()
        if inside.value != 1 { overlaps.increment() }
        count += 1
        sum += value
        sched_yield()  // widen the window an overlap would need
        inside.decrement()
    }
}

extension AtomicCounter {
    func decrement() { add(-1) }
}

@Suite struct SignalThreadTests {
    static let threads = 4
    static let sendsPerThread = 2_000

    @Test func passthroughDeliveriesNeverInterleave() {
        let subject = PassthroughSubject<Int>()
        let direct = DeliveryProbe()
        let piped = DeliveryProbe()
        let a = subject.signal.subscribe(next: { direct.receive($0) })
        let b = subject.signal.map { $0 * 2 }.filter { $0 % 4 == 0 }.subscribe(next: { piped.receive($0) })
        DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
            for index in 0..<Self.sendsPerThread { subject.send(thread * Self.sendsPerThread + index) }
        }
        let total = Self.threads * Self.sendsPerThread
        #expect(direct.count == total)
        #expect(direct.sum == total * (total - 1) / 2)
        #expect(piped.count == total / 2)
        #expect(direct.overlaps.value == 0)
        #expect(piped.overlaps.value == 0)
        withExtendedLifetime((a, b)) {}
    }

    @Test func reactivePropertyWritesFromThreadsAreAllObserved() {
        let property = ReactiveProperty(initialValue: 0, name: "threaded")
        let probe = DeliveryProbe()
        let subscription = property.subscribe { probe.receive($0) }
        let reactor = Reactor()
        let runs = AtomicCounter()
        let computation = reactor.autorun { _ in _ = property.value; runs.increment() }
        DispatchQueue.concurrentPerform(iterations: Self.threads) { _ in
            for _ in 0..<Self.sendsPerThread { property.value = 1 }
        }
        #expect(probe.count == Self.threads * Self.sendsPerThread + 1)
        #expect(probe.overlaps.value == 0)
        #expect(runs.value == Self.threads * Self.sendsPerThread + 1)
        computation.stop()
        withExtendedLifetime(subscription) {}
    }

    @Test func subscribersSendingIntoEachOthersSubjectsDoNotDeadlock() {
        let ping = PassthroughSubject<Int>()
        let pong = PassthroughSubject<Int>()
        let pingProbe = DeliveryProbe()
        let pongProbe = DeliveryProbe()
        // Each forwards what the other sends it once, so every send delivers twice.
        let a = ping.signal.subscribe(next: { value in
            pingProbe.receive(value)
            if value >= 0 { pong.send(-1) }
        })
        let b = pong.signal.subscribe(next: { value in
            pongProbe.receive(value)
            if value >= 0 { ping.send(-1) }
        })
        DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
            for index in 0..<Self.sendsPerThread {
                if thread.isMultiple(of: 2) { ping.send(index) } else { pong.send(index) }
            }
        }
        let total = Self.threads * Self.sendsPerThread
        #expect(pingProbe.count == total)
        #expect(pongProbe.count == total)
        #expect(pingProbe.overlaps.value == 0)
        #expect(pongProbe.overlaps.value == 0)
        withExtendedLifetime((a, b)) {}
    }

    @Test func subscribingAndCancellingWhileOthersSendIsSafe() {
        let subject = PassthroughSubject<Int>()
        let cleanups = AtomicCounter()
        let received = AtomicCounter()
        DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
            if thread == 0 {
                for index in 0..<Self.sendsPerThread { subject.send(index) }
            } else {
                for _ in 0..<200 {
                    let subscription = subject.signal
                        .map { $0 + 1 }
                        .subscribe(next: { _ in received.increment() })
                        .then { cleanups.increment() }
                    subscription.cancel()
                    subscription.cancel()
                }
            }
        }
        #expect(cleanups.value == (Self.threads - 1) * 200)
        #expect(subject.subscriberCount == 0)
    }

    @Test func aColdSignalsObserverMaySendFromSeveralThreads() throws {
        var captured: Observer<Int>?
        let signal = Signal<Int> { observer in
            captured = observer
            return nil
        }
        let probe = DeliveryProbe()
        var completions = 0
        let subscription = signal.map { $0 }.subscribe(next: { probe.receive($0) }, completed: { completions += 1 })
        let observer = try #require(captured)
        DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
            for index in 0..<Self.sendsPerThread { observer.send(thread * Self.sendsPerThread + index) }
        }
        observer.sendCompleted()
        observer.sendCompleted()
        let total = Self.threads * Self.sendsPerThread
        #expect(probe.count == total)
        #expect(probe.sum == total * (total - 1) / 2)
        #expect(probe.overlaps.value == 0)
        #expect(completions == 1)
        withExtendedLifetime(subscription) {}
    }

    @Test func storeActionsFromThreadsAreEachAnnouncedOnce() {
        let store = TodoStore()
        let announced = DeliveryProbe()
        let subscription = store.subscribe { _ in announced.receive(1) }
        DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
            for index in 0..<250 { store.addTodo("\(thread)-\(index)") }
        }
        #expect(store.todos.count == Self.threads * 250)
        #expect(announced.count == Self.threads * 250)
        #expect(announced.overlaps.value == 0)
        withExtendedLifetime(subscription) {}
    }

    @Test func replaySubjectSubscribersSeeEveryValueExactlyOnce() {
        let subject = ReplaySubject<Int>()
        let probes = (0..<Self.threads).map { _ in DeliveryProbe() }
        let holder = SubscriptionHolder()
        DispatchQueue.concurrentPerform(iterations: Self.threads + 1) { thread in
            if thread == Self.threads {
                for index in 0..<Self.sendsPerThread { subject.send(index) }
            } else {
                let probe = probes[thread]
                holder.add(subject.signal.subscribe(next: { probe.receive($0) }))
            }
        }
        for probe in probes {
            #expect(probe.count == Self.sendsPerThread)
            #expect(probe.sum == Self.sendsPerThread * (Self.sendsPerThread - 1) / 2)
            #expect(probe.overlaps.value == 0)
        }
        withExtendedLifetime(holder) {}
    }
}

/// Keeps subscriptions made on several threads.
final class SubscriptionHolder: Sendable {
    private let subscriptions = LockedValue<[Subscription]>([])
    func add(_ subscription: Subscription) { subscriptions.withLock { $0.append(subscription) } }
}

extension Subscription {
    /// A subscription that cancels this one, then runs `cleanup`.
    func then(_ cleanup: @escaping @Sendable () -> Void) -> Subscription {
        Subscription {
            self.cancel()
            cleanup()
        }
    }
}
