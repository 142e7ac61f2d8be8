/// A hot signal you send into by hand (RACSubject): each value goes to the
/// subscribers of the moment; a late subscriber gets only later events.
///
/// After an error or a completion the subject sends nothing more, and a later
/// subscriber receives that terminal event at once.
public final class PassthroughSubject<Value>: @unchecked Sendable {
    // @unchecked Sendable: the state lives in `core`, guarded by the graph lock.
    @usableFromInline let core: SubjectCore<Value>

    /// Creates a subject named `PassthroughSubject<Value>` in traces.
    public convenience init() {
        self.init(name: nil)
    }

    /// Creates a subject that appears under `name` in traces.
    public convenience init(name: String?) {
        self.init(name: name, redacted: false)
    }

    /// Creates a subject that appears under `name` in traces, whose values,
    /// when `redacted`, traces never record (they are written as `‹redacted›`,
    /// and so is what their deliveries write and send).
    public init(name: String?, redacted: Bool) {
        core = SubjectCore(kind: .subject, name: name ?? "PassthroughSubject<\(Value.self)>", redacted: redacted)
    }

    /// Sends `value` to the current subscribers, unless the subject has ended.
    @inlinable
    public func send(_ value: Value) {
        signalDelivery {
            if !core.isTerminated { core.deliver(value) }
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

    /// The subject's events as a signal; each subscription receives the values
    /// sent while it lasts.
    public var signal: Signal<Value> {
        let core = self.core
        return Signal(name: core.name) { observer in core.register(observer) }
    }

    /// The id under which the subject appears in traces.
    public var id: UInt64 { core.id }

    /// The number of current subscribers.
    public var subscriberCount: Int { core.subscriberCount }
}
