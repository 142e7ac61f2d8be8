/// A hot signal that sends only its last value, and only when it completes
/// (RACAsyncSubject).
///
/// Until ``sendCompleted()`` subscribers receive nothing. On completion each
/// receives the last value sent (if any), then the completion. A subscriber
/// arriving after the completion receives the same two events at once, so a
/// result cannot be missed. An error is passed on without a value, now and to
/// later subscribers.
public final class AsyncSubject<Value>: @unchecked Sendable {
    // @unchecked Sendable: the state lives in `core` and `last`, guarded by the graph lock.
    @usableFromInline let core: SubjectCore<Value>
    @usableFromInline @exclusivity(unchecked) var last: Value?
    @usableFromInline @exclusivity(unchecked) var completed = false

    /// Creates a subject named `AsyncSubject<Value>` in traces.
    public convenience init() {
        self.init(name: nil)
    }

    /// Creates a subject that appears under `name` in traces.
    public init(name: String?) {
        core = SubjectCore(kind: .subject, name: name ?? "AsyncSubject<\(Value.self)>")
    }

    /// Records `value` as the result to send on completion, unless the subject has ended.
    @inlinable
    public func send(_ value: Value) {
        signalDelivery {
            guard !core.isTerminated else { return }
            last = value
            if TraceEmit.isOn { core.recordHeld(value) }
        }
    }

    /// Ends the subject with an error; no value is sent.
    public func send(error: any Error) {
        signalDelivery {
            guard !core.isTerminated else { return }
            last = nil
            core.finish(.failed(error))
        }
    }

    /// Sends the last value (if any) and the completion to every subscriber.
    public func sendCompleted() {
        signalDelivery {
            guard !core.isTerminated else { return }
            completed = true
            if let last {
                // Sent now, it is the secret it was when it was sent.
                if TraceEmit.isOn { core.deliverTraced(last, derivedFromSecret: core.dependency.isSecret) } else { core.deliver(last) }
            }
            core.finish(.completed)
        }
    }

    /// Nothing until completion; then the last value and the completion.
    public var signal: Signal<Value> {
        Signal(name: core.name) { [self] observer in
            if completed, let last { core.replaying(holdingSecret: core.dependency.isSecret) { observer.forward(last) } }
            return core.register(observer)
        }
    }

    /// The id under which the subject appears in traces.
    public var id: UInt64 { core.id }

    /// The number of current subscribers.
    public var subscriberCount: Int { core.subscriberCount }
}
