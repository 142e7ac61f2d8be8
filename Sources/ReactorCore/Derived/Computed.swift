
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

    // A read touches the first three, a recompute the last two: the value and
    // its body live here rather than in an object of their own, so a node
    // update touches one object fewer (see `Computed+Recompute.swift`).
    @usableFromInline let node: Computation
    @usableFromInline let output: Dependency
    /// The memoized value; nil until the first computation.
    @usableFromInline @exclusivity(unchecked) var cached: Value?
    @usableFromInline let body: () -> Value

    @inlinable
    init(reactor: Reactor, name: String?, body: @escaping () -> Value,
         recompute: @escaping (Computation) -> Bool, secrecy: RunSecrecy = .follows) {
        node = Computation(reactor: reactor, name: name, parentID: 0, kind: .computed, onError: nil, body: nil,
                           recomputeDerived: recompute, secrecy: secrecy)
        output = Dependency(id: node.id, name: name)
        output.isSecret = secrecy.isMarked
        self.body = body
        output.derivedOwner = .passUnretained(node)
        node.derivedOutput = .passUnretained(output)
        node.derived = Unmanaged.passUnretained(self).toOpaque()
    }

    deinit {
        node.graph.lock.withLock {
            node.stop(cause: .stop, source: 0)
            // A recompute in progress (this object's own body may be what
            // dropped it) sees this and stores nothing.
            node.derived = nil
            // The node may outlive this object (`currentComputation` handed it out).
            node.derivedOutput = nil
            output.derivedOwner = nil
            output.forgetDerivedOwnerInSubscribers()
            // Its own derivation, or a reader's check, may be what dropped it:
            // those frames use the node, the output and the body (whose
            // captures a running body reads) without retaining them.
            node.graph.keepUntilOperationEnds(node, output, body as AnyObject)
        }
    }

    /// The current value; reading it inside a computation depends on it.
    @inlinable
    public var value: Value {
        @inline(__always) get {
            // The common read, inside a computation, of a clean value read in
            // the same order as in the last run: no call. Every other read
            // goes through one call, so that the code inlined into the body
            // keeps few values live across calls (a smaller frame).
            guard node.graph.lock.isHeldByCurrentThread else { return valueInOperation() }
            if node.needsRefresh {
                // A refresh runs inside an operation: inside a computation
                // (only a running operation makes one current), in a batch or
                // in `nonreactive`; the lock held outside any goes the slow way.
                guard node.graph.current != nil || node.graph.operationDepth > 0 else { return valueInOperation() }
                node.refreshStaleDerived()
                // Stopped before its first value, or a cycle in its first
                // computation: nothing to return (the slow path traps).
                if cached == nil { return valueLinkingSlowly() }
            }
            // It has a value: a computed that needed no refresh is clean and
            // idle, which it is only once a run of its body has ended.
            if let current = node.graph.current {
                if output.dependInPlace(by: current) { return cached.unsafelyUnwrapped }
                return valueLinkingSlowly()
            }
            // No computation to record the read (a clean value needs no operation).
            return cached.unsafelyUnwrapped
        }
    }

    /// `value` inside a computation, up to date, for a read that
    /// `Dependency.dependInPlace(by:)` does not record (one out of the last
    /// run's order, or in a run that records values), or before a first value.
    @inlinable @inline(never)
    func valueLinkingSlowly() -> Value {
        if let current = node.graph.current {
            _ = current._withUnsafeGuaranteedRef { output.linkOffCursor($0) }
        }
        guard let cached else { node.trapOnFirstComputationCycle() }
        return cached
    }

    /// `value` read outside a computation (or on a thread that does not hold
    /// the lock): out of line, so that the read inside one stays small enough
    /// to inline into the body that reads it.
    @inlinable @inline(never)
    func valueInOperation() -> Value {
        // The graph through `node` (no `swift_once`), unretained: inlined
        // into the caller's module, the optimizer would otherwise retain it.
        Unmanaged.passUnretained(node.graph)._withUnsafeGuaranteedRef { graph in
            graph.operation {
                node.prepareRead(of: output)
                guard let cached else { node.trapOnFirstComputationCycle() }
                return cached
            }
        }
    }

    /// The id under which this computed appears in traces.
    public var id: UInt64 { node.id }

    /// The name under which this computed appears in traces.
    public var name: String? { node.name }
}

extension Reactor {
    /// A lazy, memoized value derived from the reactive data `body` reads.
    ///
    /// Traces that record values follow secrets through it: its value is
    /// written as `‹redacted›` after a run that read a secret (a `redacted`
    /// property or subject, a ``Redacted`` value, or another value derived
    /// from one). `reveals: true` declassifies it: its value is written in
    /// clear whatever it read (for what is safe to show, `!token.isEmpty`).
    /// `redacted: true` makes it a secret whatever it read (`reveals` is
    /// then ignored). Neither changes what it computes.
    @inlinable
    public func computed<Value>(_ name: String? = nil, reveals: Bool = false, redacted: Bool = false,
                                fileID: String = #fileID, line: Int = #line,
                                _ body: @escaping () -> Value) -> Computed<Value> {
        let computed = Computed(reactor: self, name: name ?? "\(fileID):\(line)", body: body,
                                recompute: { Computed<Value>.recomputeAlwaysChanged($0) },
                                secrecy: RunSecrecy(reveals: reveals && !redacted, isMarked: redacted))
        traceSite(computed.node.id, fileID: fileID, line: line)
        return computed
    }

    /// A lazy, memoized value derived from the reactive data `body` reads; a
    /// recomputed value equal to the previous one invalidates nothing.
    /// `reveals` and `redacted` are as for the other `computed`.
    @inlinable
    public func computed<Value: Equatable>(_ name: String? = nil, reveals: Bool = false, redacted: Bool = false,
                                           fileID: String = #fileID, line: Int = #line,
                                           _ body: @escaping () -> Value) -> Computed<Value> {
        let computed = Computed(reactor: self, name: name ?? "\(fileID):\(line)", body: body,
                                recompute: { Computed<Value>.recomputeCutOffByEquality($0) },
                                secrecy: RunSecrecy(reveals: reveals && !redacted, isMarked: redacted))
        traceSite(computed.node.id, fileID: fileID, line: line)
        return computed
    }
}

/// A computed whose node can record its value without knowing its type.
protocol DerivedValueRecording: AnyObject {
    /// Records the current value, if there is one, as the node's value.
    func recordValue(limit: Int, to tracer: any ReactorTracer)
}

extension Computed: DerivedValueRecording {
    func recordValue(limit: Int, to tracer: any ReactorTracer) {
        guard let cached else { return }
        TraceValueText.record(cached, node: output.id, redacted: output.isSecret, limit: limit, to: tracer)
    }
}
