// How a computed's node recomputes its value. The functions are made where
// `Value` is known (`Reactor.computed`, inlinable), so they run specialized
// code, with the equality cut-off built in, and the node calls them through
// a stored function, with no closure context and no reference counting.
//
// The body's closure is a second call: the optimizer does not inline a
// closure captured by another one, so the body cannot be made part of these
// functions. What they keep across that call is the node alone: the computed
// is read again from it afterwards (it may be gone: released by its own
// body), which keeps their frame small. `@inline(__always)`: otherwise the
// closure made in `Reactor.computed` calls a specialized copy of them.

extension Computed {
    /// Recomputes `node`'s value; every recomputation but the first counts
    /// as a change (the first value is none: see `Computation.recomputeDerived`).
    @inlinable @inline(__always)
    static func recomputeAlwaysChanged(_ node: Computation) -> Bool {
        let newValue = Unmanaged<Computed>.fromOpaque(node.derived.unsafelyUnwrapped)._withUnsafeGuaranteedRef { $0.body() }
        // Released by its own body: nowhere to store the value (the body
        // itself was kept alive until the operation ends).
        guard let derived = node.derived else { return false }
        return Unmanaged<Computed>.fromOpaque(derived)._withUnsafeGuaranteedRef { computed in
            let hadValue = computed.cached != nil
            computed.cached = newValue
            return hadValue
        }
    }
}

extension Computed where Value: Equatable {
    /// Recomputes `node`'s value; one equal to the previous one is no change,
    /// and neither is the first.
    @inlinable @inline(__always)
    static func recomputeCutOffByEquality(_ node: Computation) -> Bool {
        let newValue = Unmanaged<Computed>.fromOpaque(node.derived.unsafelyUnwrapped)._withUnsafeGuaranteedRef { $0.body() }
        guard let derived = node.derived else { return false }
        return Unmanaged<Computed>.fromOpaque(derived)._withUnsafeGuaranteedRef { computed in
            guard let old = computed.cached else {
                computed.cached = newValue
                return false
            }
            let changed = !(old == newValue)
            // Into the value in place: a value once set stays set, so the
            // optional's tag is not stored again.
            computed.cached! = newValue
            return changed
        }
    }
}
