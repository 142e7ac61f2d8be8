
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
    @inline(__always)
    func markDirty(cause: InvalidationCause, source: UInt64, traced: Bool) {
        guard derivedState != .dirty, !stopped else { return }
        let wasClean = derivedState == .clean
        derivedState = .dirty
        if traced { withTracer { $0.invalidated(computation: id, cause: cause, source: source) } }
        dropEdges()
        if wasClean { derivedOutput?._withUnsafeGuaranteedRef { $0.propagateCheck() } }
        if hasInvalidateCallbacks { runInvalidateCallbacks() }
    }

    /// A read of this computed's value (lock held): brings it up to date and
    /// records that the current computation, if any, depends on it.
    @usableFromInline
    func prepareRead(of output: Dependency) {
        refreshDerived()
        output.dependLocked()
    }

    /// `prepareRead(of:)` for the common read, nested in a graph operation on
    /// this thread (inside a computation): returns false, having done nothing,
    /// for any other, which must go through `Graph.operation`.
    @inlinable @inline(__always)
    func prepareNestedRead(of output: Dependency) -> Bool {
        guard graph.lock.isHeldByCurrentThread, graph.operationDepth > 0 else { return false }
        refreshDerived()
        output.dependLocked(in: graph)
        return true
    }

    /// Brings this computed's value up to date, recomputing it only if one of
    /// its sources really changed. Reports a cycle instead of recursing forever.
    @inlinable @inline(__always)
    func refreshDerived() {
        // Clean and idle: the common case of a value read again.
        if derivedState == .clean && !isDeriving && !isChecking { return }
        refreshStaleDerived()
    }

    /// `refreshDerived()` for a computed that is not clean, or is running.
    ///
    /// Reads the tracing flag once for the whole refresh (the check walk below
    /// this computed, the reruns, changes and their readers' invalidations) and
    /// runs one of two copies of it: with no tracer installed, the same code as
    /// with tracing compiled out, instead of a check at each emission site.
    /// A tracer installed or removed meanwhile takes effect at the next refresh.
    @usableFromInline
    func refreshStaleDerived() {
        if TraceEmit.isOn { return refreshStaleDerivedTraced() }
        refreshStaleDerivedUntraced()
    }

    @inline(never)
    func refreshStaleDerivedUntraced() {
        refreshStaleDerived(traced: false)
    }

    @inline(never)
    func refreshStaleDerivedTraced() {
        refreshStaleDerived(traced: true)
    }

    @inline(__always)
    func refreshStaleDerived(traced: Bool) {
        // Reached again while it computes, or while it checks its sources:
        // computeds that read each other.
        if isDeriving || isChecking {
            reportCycle()
            return
        }
        if stopped || derivedState == .clean { return }
        // On the `derivingTop` chain from the check on through the recompute
        // that the check may lead to.
        var onChain = false
        if derivedState == .check {
            isChecking = true
            derivingCaller = graph.derivingTop
            graph.derivingTop = self
            onChain = true
            walk: while true {
                let generation = linkGeneration
                var cursor = dependenciesHead
                while let link = cursor {
                    if let source = link.pointee.source {
                        // No retain: a computed dropped during the operation keeps its parts until it ends.
                        source._withUnsafeGuaranteedRef { source in
                            if traced { source.refreshStaleDerivedTraced() } else { source.refreshStaleDerivedUntraced() }
                        }
                        // A change made it dirty: stop walking.
                        if derivedState == .dirty { break walk }
                        // A source went away under the walk: start it again.
                        if linkGeneration != generation { continue walk }
                    }
                    cursor = link.pointee.nextDependency
                }
                break
            }
            isChecking = false
            if derivedState == .check {
                derivedState = .clean
                graph.derivingTop = derivingCaller
                return
            }
        }
        guard derivedState == .dirty, derived != nil else {
            if onChain { graph.derivingTop = derivingCaller }
            return
        }
        isDeriving = true
        if !onChain {
            derivingCaller = graph.derivingTop
            graph.derivingTop = self
        }
        derivedState = .clean
        // The traced copy calls the tracer inline: it is the hot path there.
        if traced { withTracer { $0.rerunBegan(computation: id, firstRun: firstRun) } }
        let previous = graph.current
        let previousInCompute = graph.inCompute
        graph.current = .passUnretained(self)
        graph.inCompute = true
        beginTracking(traced: traced)
        let changed = recomputeDerived(self)
        finishTracking()
        graph.current = previous
        graph.inCompute = previousInCompute
        if traced { withTracer { $0.rerunEnded(computation: id) } }
        graph.derivingTop = derivingCaller
        isDeriving = false
        let wasFirstRun = firstRun
        firstRun = false
        if traced, changed || wasFirstRun, TraceEmit.valuesOn { recordDerivedValue() }
        if changed && !wasFirstRun, let output = derivedOutput {
            output._withUnsafeGuaranteedRef { output in
                if traced { withTracer { $0.changed(dependency: output.id) } }
                output.notifySubscribers(traced: traced)
            }
        }
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
        while let member = cursor, member !== self {
            members.append(member)
            cursor = member.derivingCaller
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
