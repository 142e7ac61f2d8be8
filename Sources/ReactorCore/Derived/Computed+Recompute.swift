// How a computed's node recomputes its value. The functions are made where
// `Value` is known (`Reactor.computed`, inlinable), so they run specialized
// code, with the equality cut-off built in, and the node calls them through
// a stored function, with no closure context and no reference counting.

extension Computed {
    /// Recomputes `node`'s value; every recomputation counts as a change.
    @inlinable
    static func recomputeAlwaysChanged(_ node: Computation) -> Bool {
        Unmanaged<Computed>.fromOpaque(node.derived.unsafelyUnwrapped)._withUnsafeGuaranteedRef { computed in
            let newValue = computed.body()
            // Released by its own body: nowhere to store the value (the body
            // itself was kept alive until the operation ends).
            guard node.derived != nil else { return false }
            computed.cached = newValue
            return true
        }
    }
}

extension Computed where Value: Equatable {
    /// Recomputes `node`'s value; one equal to the previous one is no change.
    @inlinable
    static func recomputeCutOffByEquality(_ node: Computation) -> Bool {
        Unmanaged<Computed>.fromOpaque(node.derived.unsafelyUnwrapped)._withUnsafeGuaranteedRef { computed in
            let newValue = computed.body()
            guard node.derived != nil else { return false }
            defer { computed.cached = newValue }
            guard let old = computed.cached else { return true }
            return !(old == newValue)
        }
    }
}
