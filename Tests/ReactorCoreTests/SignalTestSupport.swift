import ReactorCore
import Synchronization

/// An error for tests to send.
struct SignalTestError: Error, Equatable {
    var code = 1
}

/// An object whose lifetime tests watch through a weak reference.
final class Token: @unchecked Sendable {
    let value: Int
    init(_ value: Int = 0) { self.value = value }
}

/// Everything a subscription received, in order.
final class Recorder<Value>: @unchecked Sendable {
    // @unchecked Sendable: written only from deliveries, which the graph lock serialises.
    enum Event {
        case next(Value)
        case error(any Error)
        case completed
    }

    private(set) var events: [Event] = []

    var values: [Value] {
        events.compactMap { if case let .next(value) = $0 { value } else { nil } }
    }

    var isCompleted: Bool {
        events.contains { if case .completed = $0 { true } else { false } }
    }

    var errors: [any Error] {
        events.compactMap { if case let .error(error) = $0 { error } else { nil } }
    }

    /// The number of error and completed events.
    var terminalCount: Int {
        events.count { if case .next = $0 { false } else { true } }
    }

    func subscribe(_ signal: Signal<Value>) -> Subscription {
        signal.subscribe(next: { self.events.append(.next($0)) },
                         error: { self.events.append(.error($0)) },
                         completed: { self.events.append(.completed) })
    }
}

/// A counter that tests may share with `@Sendable` closures.
final class AtomicCounter: Sendable {
    private let storage = Atomic<Int>(0)
    var value: Int { storage.load(ordering: .relaxed) }
    func increment() { storage.add(1, ordering: .relaxed) }
    func add(_ amount: Int) { storage.add(amount, ordering: .relaxed) }
}
