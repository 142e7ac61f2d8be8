/// Storage for a value of type `T` whose changes can be observed
/// (the ReactiveProperty specification).
///
/// ```swift
/// let property = ReactiveProperty(initialValue: 10)
/// let subscription = property.subscribe { value in print(value) }   // prints 10
/// property.value = 100                                             // prints 100
/// ```
///
/// A property created with `externalWrite` represents existing information:
/// each write is first passed to `externalWrite`, then observers are told.
/// Reading ``value`` inside a computation depends on the property, so an
/// autorun that read it reruns after a write. Every write notifies, equal
/// value or not, as the specification's `didSet` does.
public final class ReactiveProperty<T>: @unchecked Sendable {
    // @unchecked Sendable: the value and observers are guarded by the graph lock.
    @usableFromInline let core: SubjectCore<T>
    @usableFromInline @exclusivity(unchecked) var storedValue: T
    @usableFromInline let externalWrite: ((T) -> Void)?

    /// Creates an anonymous property holding `initialValue`.
    public convenience init(initialValue: T) {
        self.init(initialValue: initialValue, name: nil, write: nil)
    }

    /// Creates an external property: every new value is passed to
    /// `externalWrite` before observers are told.
    public convenience init(initialValue: T, externalWrite: @escaping (T) -> Void) {
        self.init(initialValue: initialValue, name: nil, write: externalWrite)
    }

    /// Creates an anonymous property that appears under `name` in traces.
    public convenience init(initialValue: T, name: String) {
        self.init(initialValue: initialValue, name: name, write: nil)
    }

    /// Creates an external property that appears under `name` in traces.
    public convenience init(initialValue: T, name: String, externalWrite: @escaping (T) -> Void) {
        self.init(initialValue: initialValue, name: name, write: externalWrite)
    }

    /// Creates an anonymous property whose value, when `redacted`, traces never
    /// record (it is written as `‹redacted›`).
    public convenience init(initialValue: T, redacted: Bool) {
        self.init(initialValue: initialValue, name: nil, write: nil, redacted: redacted)
    }

    /// Creates a property named `name` in traces, whose value, when `redacted`,
    /// traces never record.
    public convenience init(initialValue: T, name: String, redacted: Bool) {
        self.init(initialValue: initialValue, name: name, write: nil, redacted: redacted)
    }

    private init(initialValue: T, name: String?, write: ((T) -> Void)?, redacted: Bool = false) {
        storedValue = initialValue
        externalWrite = write
        core = SubjectCore(kind: .reactiveProperty, name: name ?? "ReactiveProperty<\(T.self)>",
                           initialValue: initialValue, redacted: redacted)
    }

    /// The current value. Reading it inside a computation depends on the
    /// property; writing it calls `externalWrite`, then tells observers and
    /// invalidates the computations that read it.
    public var value: T {
        @inlinable get {
            graph.lock.withLock {
                core.dependency.depend()
                return storedValue
            }
        }
        @inlinable set {
            signalDelivery {
                storedValue = newValue
                externalWrite?(newValue)
                core.deliver(newValue)
            }
        }
    }

    /// Calls `next` with the current value at once, then with every new value,
    /// until the returned subscription is cancelled or released.
    public func subscribe(next: @escaping (T) -> Void) -> Subscription {
        asStream().subscribe(next: next)
    }

    /// The property as a signal: the current value at subscription, then
    /// every new value. It never completes.
    public func asStream() -> Signal<T> {
        Signal(name: core.name) { [self] observer in
            core.replaying(holdingSecret: core.dependency.isSecret) { observer.forward(storedValue) }
            return core.register(observer)
        }
    }

    /// The id under which the property appears in traces.
    public var id: UInt64 { core.id }

    /// The name under which the property appears in traces.
    public var name: String { core.name }

    /// The number of current observers.
    public var subscriberCount: Int { core.subscriberCount }
}
