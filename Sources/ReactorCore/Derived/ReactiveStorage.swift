/// The storage behind one `@Reactive` property: the value and the dependency
/// that reads record and writes change. Internal storage: `@unchecked Sendable`
/// because the value is read and written with the graph lock held.
public final class ReactiveStorage<Value>: @unchecked Sendable {
    @usableFromInline @exclusivity(unchecked) var value: Value
    @usableFromInline let dependency: Dependency
    @usableFromInline let isEqual: ((Value, Value) -> Bool)?
    /// False until the property has learned its `Owner.property` name.
    @usableFromInline @exclusivity(unchecked) var isNamed = false
    /// Called with the graph lock held before each write that changes the
    /// value, with the owner object (stores use it to enforce actions).
    @usableFromInline @exclusivity(unchecked) var ownerID: UInt64 = 0
    /// Traces write the value as `‹redacted›`.
    @usableFromInline let isRedacted: Bool

    @usableFromInline
    init(value: Value, isEqual: ((Value, Value) -> Bool)?, redacted: Bool) {
        self.value = value
        self.isEqual = isEqual
        isRedacted = redacted
        let id = ReactorTracing.makeID()
        dependency = Dependency(id: id, name: nil)
        dependency.isSecret = redacted
        withTracerAndValueLimit { [dependency] tracer, limit in
            tracer.nodeCreated(id, kind: .reactiveValue, name: "", parent: 0)
            guard limit > 0 else { return }
            // Made by a run that read a secret: a secret from the start.
            if dependency.graph.producesSecretOnThisThread { dependency.isSecret = true }
            TraceValueText.record(value, node: id, redacted: dependency.isSecret, limit: limit, to: tracer)
        }
    }

    /// Runs `body` with the graph, reached through the dependency (no
    /// `swift_once`) and unretained (inlined into another module, the
    /// optimizer would otherwise retain it).
    @inlinable
    func withGraph<R>(_ body: (Graph) throws -> R) rethrows -> R {
        try Unmanaged.passUnretained(dependency.graph)._withUnsafeGuaranteedRef(body)
    }

    /// The dependency through which computations depend on this property.
    public var projectedDependency: Dependency { dependency }

    /// The value, its read recorded. The read with the lock held (inside a
    /// computation) is all that inlines: the lock's and the naming's paths
    /// are out of line, so that the code of a read stays small.
    @inlinable
    func get() -> Value {
        if dependency.graph.lock.isHeldByCurrentThread {
            dependency.dependLocked()
            return value
        }
        return getSlowly()
    }

    /// `get()` without the lock, or its taking.
    @inlinable @inline(never)
    func getSlowly() -> Value {
        // Inside a computation the lock is held: no closure, no lock call.
        if dependency.graph.lock.isHeldByCurrentThread {
            dependency.dependLocked()
            return value
        }
        return withGraph { $0.lock.withLock {
            dependency.dependLocked()
            return value
        } }
    }

    /// Reads through the owning object: names the property on first access.
    /// `isNamed` is checked with the lock held: another thread may be naming it.
    /// The read with the lock held, of a named property, inlines, as `get()`'s.
    @inlinable
    func get<Owner: AnyObject>(namingFrom owner: Owner) -> Value {
        if dependency.graph.lock.isHeldByCurrentThread && isNamed {
            dependency.dependLocked()
            return value
        }
        return getSlowly(namingFrom: owner)
    }

    /// `get(namingFrom:)` without the lock, or before the property is named.
    @inlinable @inline(never)
    func getSlowly<Owner: AnyObject>(namingFrom owner: Owner) -> Value {
        if dependency.graph.lock.isHeldByCurrentThread {
            if !isNamed { name(from: owner) }
            dependency.dependLocked()
            return value
        }
        return withGraph { $0.lock.withLock {
            if !isNamed { name(from: owner) }
            dependency.dependLocked()
            return value
        } }
    }

    /// Writes through the owning object: names the property on first access.
    /// Graph lock held, inside the write's operation.
    @inlinable
    func setLocked<Owner: AnyObject>(_ newValue: Value, namingFrom owner: Owner) {
        if !isNamed { name(from: owner) }
        setLocked(newValue)
    }

    @inlinable
    func set(_ newValue: Value) {
        withGraph { $0.operation { setLocked(newValue) } }
    }

    /// The write, inside its graph operation. Its caller may hold this storage
    /// unretained (see `Reactive`'s setter): the user code that runs here and
    /// could replace the owner's wrapper (a store's write check, `onInvalidate`
    /// callbacks) keeps what it uses alive itself. An `Equatable` `==` and a
    /// value's description are pure by contract.
    @inlinable
    func setLocked(_ newValue: Value) {
        // Called in place: bound by `if let`, the closure would be retained.
        if isEqual?(value, newValue) == true { return }
        value = newValue
        if ownerID != 0 { return publishOwnedChange() }
        publishChange()
    }

    /// Tells the readers of the value just written. The write's one check of
    /// the tracing flag: the value is described only on the traced path, and
    /// only if the tracer asks for values.
    @inlinable @inline(__always)
    func publishChange() {
        if TraceEmit.isOn {
            if TraceEmit.valuesOn { recordValue() }
            return dependency.publishChangeTraced()
        }
        dependency.publishChangeUntraced()
    }

    /// Publishes the change of a property a store owns, after the store's
    /// check of the write (which may report an issue to user code): retained
    /// meanwhile, since the write may hold it unretained.
    @usableFromInline @inline(never)
    func publishOwnedChange() {
        let retained = Unmanaged.passUnretained(self).retain()
        defer { retained.release() }
        ReactiveWriteObserver.willChange(ownerID: ownerID, dependency: dependency)
        publishChange()
    }

    /// Records the value just written, before its `changed` (values on only):
    /// a secret if the property is marked or the write derives from a secret
    /// (then until a write that does not), in clear otherwise.
    @usableFromInline @inline(never)
    func recordValue() {
        let secret = isRedacted || dependency.graph.producesSecret
        dependency.isSecret = secret
        withTracerAndValueLimit { tracer, limit in
            if limit > 0 { TraceValueText.record(value, node: dependency.id, redacted: secret, limit: limit, to: tracer) }
        }
    }

    /// Names the property `Owner.property` after the first access through its owner.
    @usableFromInline
    func name<Owner: AnyObject>(from owner: Owner) {
        // Reflection may run the owner's `customMirror`: hold this storage in
        // case that replaces the wrapper (reads reach it unretained).
        let retained = Unmanaged.passUnretained(self).retain()
        defer { retained.release() }
        withGraph { $0.lock.withLock {
            guard !isNamed else { return }
            isNamed = true
            var label = "value"
            for child in Mirror(reflecting: owner).children {
                if let wrapper = child.value as? Reactive<Value>, wrapper.storage === self, let childLabel = child.label {
                    label = childLabel.hasPrefix("_") ? String(childLabel.dropFirst()) : childLabel
                    break
                }
            }
            let ownerName = String(describing: Owner.self)
            let name = "\(ownerName).\(label)"
            dependency.storedName = name
            if let node = owner as? any TraceOwner { ownerID = node.traceID }
            withTracer { $0.nodeNamed(dependency.id, name: name, owner: ownerID) }
        } }
    }
}

/// An object that appears as a node in traces and owns reactive state (a store).
public protocol TraceOwner: AnyObject {
    /// The process-unique id of the owner's node.
    var traceID: UInt64 { get }
}

/// Lets stores check writes to their state (`requireActions`) without the
/// core knowing about stores. Set once; called with the graph lock held.
@usableFromInline
enum ReactiveWriteObserver {
    /// Called before a write to a property owned by `ownerID` notifies its readers.
    @usableFromInline nonisolated(unsafe) static var handler: ((_ ownerID: UInt64, _ dependency: Dependency) -> Void)?

    @inlinable
    static func willChange(ownerID: UInt64, dependency: Dependency) {
        if ownerID != 0, let handler { handler(ownerID, dependency) }
    }
}
