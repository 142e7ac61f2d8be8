import ReactorTraceFormat

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

    /// Brings this computed (stale or possibly stale) up to date without
    /// recursing: the computeds being checked form a stack through
    /// `derivingCaller` (the `derivingTop` chain, which also names the members
    /// of a cycle), and each remembers where its walk over its sources stopped
    /// (`checkCursor`). A chain of n computeds costs one frame, not n.
    @inline(__always)
    func refreshStaleDerived(traced: Bool) {
        // Reached again while it computes, or while it checks its sources:
        // computeds that read each other.
        if isDeriving || isChecking {
            reportCycle()
            return
        }
        if stopped || derivedState == .clean { return }
        derivingCaller = graph.derivingTop
        graph.derivingTop = self
        let root = Unmanaged.passUnretained(self)
        var node = root
        // Unmanaged, each step on a guaranteed reference: no retain per node
        // (computeds dropped meanwhile keep their parts until the operation ends).
        while let next = node._withUnsafeGuaranteedRef({ $0.refreshStep(traced: traced, isRoot: node.toOpaque() == root.toOpaque()) }) {
            node = next
        }
    }

    /// One step of `refreshStaleDerived(traced:)` for this computed, on top of
    /// the chain and possibly stale or stale (when checking already, the source
    /// at its `checkCursor` was just refreshed). Returns the computed to step
    /// next: a source to refresh first, now on top of the chain, or the
    /// computed that read this one, whose walk goes on; nil after the root.
    @inline(__always)
    func refreshStep(traced: Bool, isRoot: Bool) -> Unmanaged<Computation>? {
        if derivedState == .check {
            var cursor: LinkPointer?
            if !isChecking {
                isChecking = true
                checkGeneration = linkGeneration
                cursor = dependenciesHead
            } else if linkGeneration != checkGeneration {
                // A source went away under the walk: start it again.
                checkGeneration = linkGeneration
                cursor = dependenciesHead
            } else {
                cursor = checkCursor.unsafelyUnwrapped.pointee.nextDependency
            }
            walk: while let link = cursor {
                if let source = link.pointee.source {
                    let descend = source._withUnsafeGuaranteedRef { source in
                        if source.isDeriving || source.isChecking {
                            checkCursor = link
                            source.reportCycle()
                            return false
                        }
                        return !source.stopped && source.derivedState != .clean
                    }
                    if descend {
                        checkCursor = link
                        source._withUnsafeGuaranteedRef { source in
                            source.derivingCaller = self
                            graph.derivingTop = source
                        }
                        return source
                    }
                    // A cycle's report ran user code: a change may have made
                    // this computed dirty, or a source may have gone away.
                    if derivedState != .check { break walk }
                    if linkGeneration != checkGeneration {
                        checkGeneration = linkGeneration
                        cursor = dependenciesHead
                        continue walk
                    }
                }
                cursor = link.pointee.nextDependency
            }
        }
        isChecking = false
        if derivedState == .dirty && derived != nil {
            rederive(traced: traced)  // which takes it off the chain
        } else {
            // Still possibly stale: every source is as it was, so is the value.
            if derivedState == .check { derivedState = .clean }
            graph.derivingTop = derivingCaller
        }
        if isRoot { return nil }
        // Back to the computed that read this one: its walk goes on, or
        // stops if this one changed (which made it dirty).
        return .passUnretained(derivingCaller.unsafelyUnwrapped)
    }

    /// Recomputes this computed's value, on top of the `derivingTop` chain,
    /// and tells its readers if the value changed.
    @inline(__always)
    func rederive(traced: Bool) {
        isDeriving = true
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
        // Off the chain before its readers hear of the change.
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
