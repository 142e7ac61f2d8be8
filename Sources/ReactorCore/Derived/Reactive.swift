/// Makes a stored property of a class reactive: reads inside a computation
/// depend on it, writes invalidate the computations that read it.
///
/// ```swift
/// final class Person {
///     @Reactive var name = "Ada"
///     @Reactive var age = 36
/// }
/// ```
///
/// No conformance is needed. In traces the property is named `Person.age`.
/// Writing an `Equatable` value equal to the current one invalidates nothing.
///
/// `@Reactive(redacted: true) var token = ""` marks a secret: a trace that records
/// values writes it as `‹redacted›`, whatever the recorder's options, and so
/// what the autoruns and computeds that read it produce.
@propertyWrapper
public struct Reactive<Value> {
    @usableFromInline let storage: ReactiveStorage<Value>

    /// A reactive property whose every write invalidates its readers.
    @inlinable
    public init(wrappedValue: Value) {
        storage = ReactiveStorage(value: wrappedValue, isEqual: nil, redacted: false)
    }

    /// A reactive property whose writes of an equal value invalidate nothing.
    @inlinable
    public init(wrappedValue: Value) where Value: Equatable {
        storage = ReactiveStorage(value: wrappedValue, isEqual: { $0 == $1 }, redacted: false)
    }

    /// A reactive property whose value, when `redacted`, traces never record
    /// (it is written as `‹redacted›`).
    @inlinable
    public init(wrappedValue: Value, redacted: Bool) {
        storage = ReactiveStorage(value: wrappedValue, isEqual: nil, redacted: redacted)
    }

    /// A reactive property whose value, when `redacted`, traces never record;
    /// writes of an equal value invalidate nothing.
    @inlinable
    public init(wrappedValue: Value, redacted: Bool) where Value: Equatable {
        storage = ReactiveStorage(value: wrappedValue, isEqual: { $0 == $1 }, redacted: redacted)
    }

    /// The value, for a `@Reactive` outside a class (no owner name).
    public var wrappedValue: Value {
        get { storage.get() }
        nonmutating set { storage.set(newValue) }
    }

    /// `$property`: the storage, whose ``ReactiveStorage/projectedDependency`` is the dependency.
    public var projectedValue: ReactiveStorage<Value> { storage }

    /// Access through the owning object, which names the property `Owner.property`.
    @inlinable
    public static subscript<Owner: AnyObject>(
        _enclosingInstance owner: Owner,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<Owner, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<Owner, Reactive<Value>>
    ) -> Value {
        get {
            // Unretained: a read runs no user code that could replace the
            // owner's wrapper (a write does, through onInvalidate callbacks).
            Unmanaged.passUnretained(owner[keyPath: storageKeyPath].storage)
                ._withUnsafeGuaranteedRef { $0.get(namingFrom: owner) }
        }
        @inline(__always) set {
            // Storage and owner unretained, as for a read (captured strongly
            // by the closures, they would be retained), and the write's
            // operation opened here, outside the storage's methods: the flush
            // that ends it, whose autoruns may replace the owner's wrapper,
            // runs once the storage is no longer used (see
            // `ReactiveStorage.setLocked(_:)`).
            let storage = Unmanaged.passUnretained(owner[keyPath: storageKeyPath].storage)
            let owner = Unmanaged.passUnretained(owner)
            storage._withUnsafeGuaranteedRef { Unmanaged.passUnretained($0.dependency.graph) }
                ._withUnsafeGuaranteedRef { graph in
                    graph.operation {
                        storage._withUnsafeGuaranteedRef { storage in
                            owner._withUnsafeGuaranteedRef { storage.setLocked(newValue, namingFrom: $0) }
                        }
                    }
                }
        }
    }
}
