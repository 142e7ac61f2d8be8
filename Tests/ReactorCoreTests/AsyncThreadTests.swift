import Foundation
import ReactorCore
import Testing

/// `for await` over signals and reactive expressions, and awaited writes,
/// under Swift 6 strict concurrency: loops run in tasks, values come from
/// other threads.
@Suite struct AsyncThreadTests {
    @Test func forAwaitOverASubjectsValues() async {
        let subject = PassthroughSubject<Int>()
        let values = subject.signal.values       // subscribed now: later sends are buffered
        let consumer = Task {
            var seen: [Int] = []
            for await value in values { seen.append(value) }
            return seen
        }
        let producer = Task.detached {
            for value in 1...100 { subject.send(value) }
            subject.sendCompleted()
        }
        await producer.value
        #expect(await consumer.value == Array(1...100))
        #expect(subject.subscriberCount == 0)
    }

    @Test func throwingValuesThrowTheSignalsError() async {
        let subject = PassthroughSubject<String>()
        let values = subject.signal.throwingValues
        subject.send("a")
        subject.send(error: TestFailure())
        var seen: [String] = []
        do {
            for try await value in values { seen.append(value) }
            Issue.record("the loop should have thrown")
        } catch {
            #expect(error is TestFailure)
        }
        #expect(seen == ["a"])
    }

    @Test func cancellingTheIteratingTaskUnsubscribes() async {
        let subject = PassthroughSubject<Int>()
        let values = subject.signal.values
        #expect(subject.subscriberCount == 1)
        let first = AsyncStream.makeStream(of: Int.self)
        let consumer = Task {
            for await value in values { first.continuation.yield(value) }
        }
        subject.send(1)
        var iterator = first.stream.makeAsyncIterator()
        #expect(await iterator.next() == 1)      // the loop is running
        consumer.cancel()
        await consumer.value
        #expect(subject.subscriberCount == 0)
    }


    @Test func forAwaitOverAReactiveExpressionsChanges() async {
        let reactor = Reactor()
        let cart = Cart()
        // Written as a user writes it: the expression inside the loop's header, no trailing closure
        // (the suite builds without warnings, so this form must not warn either).
        // The writer waits for the loop's first value: writes made before the loop subscribes are
        // already in the value it starts from.
        let listening = AsyncStream.makeStream(of: Void.self)
        let consumer = Task {
            var seen: [Int] = []
            for await total in reactor.changes({ cart.total }) {
                seen.append(total)
                listening.continuation.yield()
                if total >= 10 { break }
            }
            return seen
        }
        let writer = Task.detached {
            for await _ in listening.stream { break }
            for price in [3, 0, 7] {   // adding 0 leaves the total at 3: no new value
                cart.prices.value.append(price)
            }
        }
        await writer.value
        #expect(await consumer.value == [0, 3, 10])
    }

    @Test @MainActor func awaitedWriteFromTheMainActorRunsOffItAndReturnsAfterTheReruns() async {
        let reactor = Reactor()
        let cart = Cart()
        let seen = ReactiveProperty(initialValue: 0, name: "seen")
        let autorun = reactor.autorun("total") { _ in seen.value = cart.total }
        let ranOnMain = await reactor.write {
            cart.prices.value = [2, 5]
            return Thread.isMainThread
        }
        #expect(!ranOnMain)
        #expect(seen.value == 7)                 // the autorun reran before the write returned
        autorun.stop()
    }
}
