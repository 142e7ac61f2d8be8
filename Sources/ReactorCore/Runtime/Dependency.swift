/// A unit of reactive data that computations depend on (Tracker's `Dependency`).
///
/// Reading data calls ``depend(_:)``; writing it calls ``changed()``, which
/// invalidates every dependent computation and removes it as a dependent.
public final class Dependency: @unchecked Sendable {
    // @unchecked Sendable: every mutable field is guarded by the graph lock.

    /// The process-unique id under which this dependency appears in traces.
    public let id: UInt64
    /// The name under which this dependency appears in traces and graphs.
    public var name: String? { graph.lock.withLock { storedName } }

    /// The process-wide graph (see `Computation.graph`).
    @usableFromInline let graph: Graph = ReactorCore.graph
    // What a write or a read touches first, in the first cache line.
    /// Who read it (the engine's record of this dependency; see `SubscriberList`).
    @usableFromInline @exclusivity(unchecked) var subscribers = SubscriberList()
    /// The computed value whose output this dependency is, if any: reading it
    /// may first need that computed to refresh.
    @usableFromInline @exclusivity(unchecked) var derivedOwner: Unmanaged<Computation>?
    @usableFromInline @exclusivity(unchecked) var storedName: String?
    /// The value it holds is a secret: marked so, or derived from one while
    /// traced (see `Graph+Secrets.swift`). A traced run that reads it
    /// produces secrets.
    @usableFromInline @exclusivity(unchecked) var isSecret = false

    /// Creates a dependency; `name` is how traces and graphs show it.
    public init(_ name: String? = nil) {
        id = ReactorTracing.makeID()
        storedName = name
        withTracer { $0.nodeCreated(id, kind: .dependency, name: name ?? "", parent: 0) }
    }

    /// Creates the dependency of a reactive value, property, subject or computed,
    /// sharing its owner's id and kind in traces.
    @usableFromInline
    init(id: UInt64, name: String?) {
        self.id = id
        storedName = name
    }

    deinit {
        graph.lock.withLock { detachAllSubscribers() }
    }

    /// Declares that `computation` (the current computation if `nil`) depends on
    /// this dependency, so it is invalidated the next time it changes.
    ///
    /// Returns `true` if the computation is a new dependent, `false` if it was
    /// one already or if there is no computation to depend.
    @discardableResult
    public func depend(_ computation: Computation? = nil) -> Bool {
        if let computation {
            return graph.lock.withLock { linkNamed(computation) }
        }
        // Only a thread inside a computation holds the lock, so any other
        // caller is outside every computation: nothing to record.
        guard graph.lock.isHeldByCurrentThread else { return false }
        return dependLocked()
    }

    /// `depend(computation)`: links even where `computation` keeps itself
    /// current with its reads untracked to follow secrets (its own
    /// `nonreactive` block or action body, recording values), as it links
    /// there with no tracer. Lock held.
    func linkNamed(_ computation: Computation) -> Bool {
        let tracing = computation.runTracing
        guard tracing.isUntracked else { return link(computation) }
        computation.runTracing = .tracedWithValues
        defer { computation.runTracing = tracing }
        return link(computation)
    }

    /// `depend()` for a caller that holds the graph lock.
    @inlinable @inline(__always)
    @discardableResult
    func dependLocked() -> Bool {
        dependLocked(in: graph)
    }

    /// `dependLocked()` with the graph at hand (the caller's, the same one):
    /// spares a load of this dependency's before `current` can be read.
    @inlinable @inline(__always)
    @discardableResult
    func dependLocked(in graph: Graph) -> Bool {
        guard let current = graph.current else { return false }
        return current._withUnsafeGuaranteedRef { link($0) }
    }

    /// Invalidates every dependent computation and removes them as dependents.
    public func changed() {
        graph.operation { publishChange() }
    }

    /// True if one or more computations depend on this dependency.
    public var hasDependents: Bool {
        graph.lock.withLock {
            var cursor = subscribers.head
            while let link = cursor {
                if link.pointee.isLive { return true }
                cursor = link.pointee.nextSubscriber
            }
            return false
        }
    }
}
