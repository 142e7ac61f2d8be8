/// A memoized value derived from reactive data (what MobX, Vue and Angular
/// call computed). Create one with ``Reactor/computed(_:_:)``.
///
/// - Lazy: nothing runs until ``value`` is read.
/// - Memoized: the body reruns only after something it read changed.
/// - Glitch-free: a diamond of computeds reruns its reader once per write.
/// - Cut off by equality: for `Equatable` values, an unchanged result
///   invalidates nothing downstream.
///
/// A computed that reads itself, directly or through others, is reported as
/// ``ReactorIssue/cycle(names:)`` and the inner read returns the previous value
/// (a cycle on the very first computation has no value to return and traps
/// with the same message).
public final class Computed<Value>: @unchecked Sendable {
    // @unchecked Sendable: `cached` is read and written with the graph lock held.

    @usableFromInline let node: Computation
    @usableFromInline let output: Dependency
    @usableFromInline @exclusivity(unchecked) var cached: Value?
    @usableFromInline let body: () -> Value
    @usableFromInline let isEqual: ((Value, Value) -> Bool)?

    @inlinable
    init(reactor: Reactor, name: String?, isEqual: ((Value, Value) -> Bool)?, body: @escaping () -> Value) {
        node = Computation(reactor: reactor, name: name, parentID: 0, kind: .computed, onError: nil, body: nil)
        output = Dependency(id: node.id, name: name)
        self.body = body
        self.isEqual = isEqual
        output.derivedOwner = .passUnretained(node)
        node.derivedOutput = .passUnretained(output)
        // `unowned` (not `unowned(unsafe)`): loading it takes a strong
        // reference for the run, and the body may drop the last other one.
        node.derive = { [unowned self] in self.derive() }
    }

    deinit {
        graph.lock.withLock {
            node.stop(cause: .stop, source: 0)
            node.derive = nil
            // The node may outlive this object (`currentComputation` handed it out).
            node.derivedOutput = nil
            output.derivedOwner = nil
        }
    }

    /// The current value; reading it inside a computation depends on it.
    @inlinable
    public var value: Value {
        graph.operation {
            node.refreshDerived()
            output.depend()
            guard let cached else {
                fatalError("Reactor: computed '\(node.name ?? "#\(node.id)")' read itself during its first computation")
            }
            return cached
        }
    }

    /// The id under which this computed appears in traces.
    public var id: UInt64 { node.id }

    /// The name under which this computed appears in traces.
    public var name: String? { node.name }

    @inlinable
    func derive() -> Bool {
        let newValue = body()
        defer { cached = newValue }
        guard let old = cached, let isEqual else { return true }
        return !isEqual(old, newValue)
    }
}

extension Reactor {
    /// A lazy, memoized value derived from the reactive data `body` reads.
    @inlinable
    public func computed<Value>(_ name: String? = nil, fileID: String = #fileID, line: Int = #line,
                                _ body: @escaping () -> Value) -> Computed<Value> {
        Computed(reactor: self, name: name ?? "\(fileID):\(line)", isEqual: nil, body: body)
    }

    /// A lazy, memoized value derived from the reactive data `body` reads; a
    /// recomputed value equal to the previous one invalidates nothing.
    @inlinable
    public func computed<Value: Equatable>(_ name: String? = nil, fileID: String = #fileID, line: Int = #line,
                                           _ body: @escaping () -> Value) -> Computed<Value> {
        Computed(reactor: self, name: name ?? "\(fileID):\(line)", isEqual: { $0 == $1 }, body: body)
    }
}
