/// A hot signal that remembers its latest value (RACBehaviorSubject): a new
/// subscriber receives that value at once, then every later one.
///
/// Reading ``value`` inside a computation depends on the subject. After an
/// error or a completion a new subscriber receives only the terminal event.
public final class BehaviorSubject<Value>: @unchecked Sendable {
    // @unchecked Sendable: the state lives in `core` and `current`, guarded by the graph lock.
    @usableFromInline let core: SubjectCore<Value>
    @usableFromInline @exclusivity(unchecked) var current: Value

    /// Creates a subject whose current value is `value`.
    public convenience init(value: Value) {
        self.init(value: value, name: nil)
    }

    /// Creates a subject whose current value is `value`, named `name` in traces.
    public convenience init(value: Value, name: String?) {
        self.init(value: value, name: name, redacted: false)
    }

    /// Creates a subject whose current value is `value`, named `name` in
    /// traces, whose values, when `redacted`, traces never record (they are
    /// written as `‹redacted›`, and so is what their deliveries write and send).
    public init(value: Value, name: String?, redacted: Bool) {
        current = value
        core = SubjectCore(kind: .subject, name: name ?? "BehaviorSubject<\(Value.self)>", initialValue: value,
                           redacted: redacted)
    }

    /// The latest value sent (or the initial one); reading it inside a
    /// computation depends on the subject.
    public var value: Value {
        graph.lock.withLock {
            core.dependency.depend()
            return current
        }
    }

    /// Makes `value` the current value and sends it to the subscribers,
    /// unless the subject has ended.
    @inlinable
    public func send(_ value: Value) {
        signalDelivery {
            guard !core.isTerminated else { return }
            current = value
            core.deliver(value)
        }
    }

    /// Ends the subject with an error.
    public func send(error: any Error) {
        signalDelivery { core.finish(.failed(error)) }
    }

    /// Ends the subject normally.
    public func sendCompleted() {
        signalDelivery { core.finish(.completed) }
    }

    /// The current value followed by every later one.
    public var signal: Signal<Value> {
        Signal(name: core.name) { [self] observer in
            if !core.isTerminated { core.replaying(holdingSecret: core.dependency.isSecret) { observer.forward(current) } }
            return core.register(observer)
        }
    }

    /// The id under which the subject appears in traces.
    public var id: UInt64 { core.id }

    /// The number of current subscribers.
    public var subscriberCount: Int { core.subscriberCount }
}
