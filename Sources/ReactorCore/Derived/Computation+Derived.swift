
// The computation side of `Computed`: push "maybe changed" down the graph,
// pull fresh values up it, so that a diamond reruns its effect once per write
// and an unchanged value invalidates nothing.

extension Computation {
    /// A source of this computed changed (or it was invalidated or stopped):
    /// its value must be recomputed, and whoever read it may need to rerun.
    /// Runs its `onInvalidate` callbacks, which stop the autoruns created
    /// while it computed, as for any computation.
    func markDirty(cause: InvalidationCause, source: UInt64) {
        markDirty(cause: cause, source: source, traced: TraceEmit.isOn)
    }

    /// `markDirty(cause:source:)` within a node update that has read the
    /// tracing flag already (see `refreshStaleDerived()`).
    /// `mayHaveCallbacks` and `live` as for `invalidate(cause:source:traced:mayHaveCallbacks:live:)`
    /// (reached through a live link, a computed is not stopped; it may be
    /// dirty, marked so directly by a source's rederive: see `Dependency.isReadOnly(byChecking:)`).
    @inline(__always)
    func markDirty(cause: InvalidationCause, source: UInt64, traced: Bool, mayHaveCallbacks: Bool = true,
                   live: Bool = false) {
        assert(!live || !stopped, "a stopped computed reached through a live link")
        guard derivedState != .dirty, live || !stopped else { return }
        let wasClean = derivedState == .clean
        derivedState = .dirty
        if traced { TraceEmit.invalidated(computation: id, cause: cause, source: source) }
        dropEdges()
        // Not stopped, so its `Computed` is there (whose deinit stops it
        // before letting the output go): the output is, with no test.
        // Inline where reached through a live link (a notification loop, the hot path).
        if wasClean {
            derivedOutput.unsafelyUnwrapped._withUnsafeGuaranteedRef { output in
                if live { output.propagateCheckInline() } else { output.propagateCheck() }
            }
        }
        if mayHaveCallbacks && hasInvalidateCallbacks { runInvalidateCallbacks() }
    }

    /// A read of this computed's value (lock held): brings it up to date and
    /// records that the current computation, if any, depends on it.
    @usableFromInline
    func prepareRead(of output: Dependency) {
        refreshDerived()
        output.dependLocked()
    }

    /// A read must refresh this computed first (see `refreshDerived()`).
    @inlinable @inline(__always)
    var needsRefresh: Bool {
        derivedState != .clean || activity != .idle
    }

    /// Records the computed's new value (its first, or one that changed), if
    /// the tracer captures values. Traced path only.
    @inline(never)
    func recordDerivedValue() {
        withTracerAndValueLimit { tracer, limit in
            guard limit > 0, let derived else { return }
            let owner = Unmanaged<AnyObject>.fromOpaque(derived).takeUnretainedValue()
            (owner as? any DerivedValueRecording)?.recordValue(limit: limit, to: tracer)
        }
    }

    /// Reports the cycle this computed closes: the computeds being derived or
    /// checked from it up to the innermost one.
    @inline(never)
    func reportCycle() {
        var members: [Computation] = [self]
        var cursor = graph.derivingTop
        while let member = cursor?.takeUnretainedValue(), member !== self {
            members.append(member)
            cursor = member.callerOnChain
        }
        members.append(self)
        let names = members.reversed().map { $0.name ?? "#\($0.id)" }
        reactor.report(.cycle(names: names), node: id)
    }

    /// A computed read itself during its first computation: there is no value to return.
    @usableFromInline
    func trapOnFirstComputationCycle() -> Never {
        // The cycle was reported (and traced) by `reportCycle()` on the way here.
        runtimeFatalError("Reactor: computed '\(name ?? "#\(id)")' read itself during its first computation")
    }
}
