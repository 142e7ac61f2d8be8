// Pulling values up the graph: a possibly stale computed checks its computed
// sources, deepest first, and recomputes only if one of them changed; an
// autorun does the same before it reruns.

extension Computation {
    /// Refreshes the computeds this autorun read, in reading order, until
    /// one of them changes (which invalidates it). (A computed checks its
    /// sources in `refreshStep`.) Reads the tracer slot once for the walk,
    /// as a refresh does (see `refreshStaleDerived()`).
    func refreshDerivedDependencies() {
        if TraceEmit.isOn { return refreshDerivedDependenciesTraced() }
        refreshDerivedDependencies { $0.refreshStaleDerivedUntraced() }
    }

    /// The traced copy of `refreshDerivedDependencies()`: each stale source
    /// chooses its traced refresh (with or without values).
    @inline(never)
    func refreshDerivedDependenciesTraced() {
        refreshDerivedDependencies { $0.refreshStaleDerived() }
    }

    /// The walk of `refreshDerivedDependencies()`, `refreshStale` refreshing
    /// a source that is not clean and idle.
    @inline(__always)
    func refreshDerivedDependencies(_ refreshStale: (Computation) -> Void) {
        walk: while true {
            let generation = dependencies.generation
            var cursor = dependencies.head
            while let link = cursor {
                if let source = link.pointee.source {
                    // No retain: a computed dropped during the operation keeps its parts until it ends.
                    source._withUnsafeGuaranteedRef { source in
                        if source.needsRefresh { refreshStale(source) }
                    }
                    // A change invalidated it: stop walking.
                    if invalidated { return }
                    // A source went away under the walk: start it again.
                    if dependencies.generation != generation { continue walk }
                }
                cursor = link.pointee.nextDependency
            }
            return
        }
    }

    /// Brings this computed's value up to date, recomputing it only if one of
    /// its sources really changed. Reports a cycle instead of recursing forever.
    @inlinable @inline(__always)
    func refreshDerived() {
        // Clean and idle: the common case of a value read again.
        guard needsRefresh else { return }
        refreshStaleDerived()
    }

    /// `refreshDerived()` for a computed that is not clean, or is running.
    ///
    /// Reads the tracer slot once for the whole refresh (the check walk below
    /// this computed, the reruns, changes and their readers' invalidations) and
    /// runs one of three copies of it (see `RunTracing`): with no tracer
    /// installed, the same code as with tracing compiled out, instead of a
    /// check at each emission site; with one, secrets are followed only in the
    /// copy that records values. A tracer installed or removed meanwhile takes
    /// effect at the next refresh.
    @usableFromInline
    func refreshStaleDerived() {
        if TraceEmit.isOn { return refreshStaleDerivedTraced() }
        refreshStaleDerivedUntraced()
    }

    @inline(never)
    func refreshStaleDerivedUntraced() {
        refreshStaleDerived(tracing: .untraced)
    }

    /// Chooses between the traced copies here, so that the untraced path
    /// above is the one of a build without secrets.
    @inline(never)
    func refreshStaleDerivedTraced() {
        if TraceEmit.valuesOn { return refreshStaleDerivedTracedWithValues() }
        refreshStaleDerived(tracing: .traced)
    }

    @inline(never)
    func refreshStaleDerivedTracedWithValues() {
        refreshStaleDerived(tracing: .tracedWithValues)
    }

    /// Brings this computed (stale or possibly stale) up to date without
    /// recursing: the computeds being checked form a stack through
    /// `callerOnChain` (the `derivingTop` chain, which also names the members
    /// of a cycle), and each remembers where its walk over its sources stopped
    /// (`checkCursor`). A chain of n computeds costs one frame, not n.
    /// Every caller has found it not clean or not idle (`needsRefresh`).
    @inline(__always)
    func refreshStaleDerived(tracing: RunTracing) {
        assert(needsRefresh, "a refresh of a clean, idle computed")
        // Reached again while it computes, or while it checks its sources:
        // computeds that read each other.
        if activity != .idle {
            reportCycle()
            return
        }
        // Idle, so not clean (see above).
        if stopped { return }
        callerOnChain = graph.derivingTop
        graph.derivingTop = .passUnretained(self)
        let root = Unmanaged.passUnretained(self)
        var node = root
        // Unmanaged, each step on a guaranteed reference: no retain per node
        // (computeds dropped meanwhile keep their parts until the operation ends).
        while true {
            let step = node
            guard step._withUnsafeGuaranteedRef({ $0.refreshStep(tracing: tracing, root: root, next: &node) }) else { break }
        }
    }

    /// One step of `refreshStaleDerived(tracing:)` for this computed, on top of
    /// the chain and possibly stale or stale (when checking already, the source
    /// at its `checkCursor` was just refreshed). Sets `next` to the computed to
    /// step next and returns true: a source to refresh first, now on top of
    /// the chain, or the computed that read this one, whose walk goes on.
    /// Returns false after the root (`root`, the computed the refresh is
    /// for). (A flag rather than an optional: the step back to the reader
    /// then needs no test of a pointer known not nil.)
    @inline(__always)
    func refreshStep(tracing: RunTracing, root: Unmanaged<Computation>, next: inout Unmanaged<Computation>) -> Bool {
        if derivedState == .check {
            var cursor: LinkPointer?
            if activity != .checking {
                activity = .checking
                checkGeneration = dependencies.generation
                cursor = dependencies.head
            } else if dependencies.generation != checkGeneration {
                // A source went away under the walk: start it again.
                checkGeneration = dependencies.generation
                cursor = dependencies.head
            } else {
                cursor = checkCursor.unsafelyUnwrapped.pointee.nextDependency
            }
            walk: while let link = cursor {
                if let source = link.pointee.source {
                    let descend = source._withUnsafeGuaranteedRef { source in
                        if source.activity != .idle {
                            checkCursor = link
                            graph.derivingTop = .passUnretained(self)
                            source.reportCycle()
                            return false
                        }
                        return !source.stopped && source.derivedState != .clean
                    }
                    if descend {
                        checkCursor = link
                        // On the chain; `graph.derivingTop` is brought up to
                        // it only before code that reads it can run (a
                        // rederive, a cycle's report): a descent stores one
                        // field, not two.
                        source._withUnsafeGuaranteedRef { $0.callerOnChain = .passUnretained(self) }
                        next = source
                        return true
                    }
                    // A cycle's report ran user code: a change may have made
                    // this computed dirty, or a source may have gone away.
                    if derivedState != .check { break walk }
                    if dependencies.generation != checkGeneration {
                        checkGeneration = dependencies.generation
                        cursor = dependencies.head
                        continue walk
                    }
                }
                cursor = link.pointee.nextDependency
            }
        }
        if derivedState == .dirty && derived != nil {
            // Rederived, which takes it off the chain (and leaves it idle);
            // then, as long as a change goes to the checking reader alone
            // (see `rederive`), that reader, with no step of the walk
            // between: its check is over, and it would find itself dirty.
            // Not counted in `graph.autorunsRunning`: deriving on top of the chain says as much
            // (see `Graph.isComputing`).
            let previous = graph.current
            var deriving = Unmanaged.passUnretained(self)
            var isRoot = deriving.toOpaque() == root.toOpaque()
            while deriving._withUnsafeGuaranteedRef({ $0.rederive(tracing: tracing, isRoot: isRoot, previous: previous) }) {
                deriving = deriving._withUnsafeGuaranteedRef { $0.callerOnChain.unsafelyUnwrapped }
                isRoot = deriving.toOpaque() == root.toOpaque()
            }
            if isRoot { return false }
            // Back to the computed that read the last one rederived: its walk
            // goes on, or stops if that one changed (which made it dirty).
            next = deriving._withUnsafeGuaranteedRef { $0.callerOnChain.unsafelyUnwrapped }
            return true
        }
        activity = .idle
        // Still possibly stale: every source is as it was, so is the value.
        if derivedState == .check { derivedState = .clean }
        graph.derivingTop = callerOnChain
        if Unmanaged.passUnretained(self).toOpaque() == root.toOpaque() { return false }
        // Back to the computed that read this one: its walk goes on.
        next = callerOnChain.unsafelyUnwrapped
        return true
    }

    /// Recomputes this computed's value, on top of the `derivingTop` chain,
    /// and tells its readers if the value changed. `isRoot`: the computed a
    /// read refreshes, rather than a source a check stepped into (only such a
    /// source can have a checking reader, the one that stepped into it).
    /// Returns true if the change went to that checking reader alone (see
    /// `Dependency.isReadOnly(byChecking:)`), which the caller rederives
    /// next, with nothing between: it is then told nothing (it would be
    /// marked dirty, which its rederive undoes at once). `previous`: the
    /// current computation before the first of such a run of rederives,
    /// current again after the last (see `leaveRederive(restoring:)`).
    @inline(__always)
    func rederive(tracing: RunTracing, isRoot: Bool, previous: Unmanaged<Computation>?) -> Bool {
        let traced = tracing.isTraced
        activity = .deriving
        derivedState = .clean
        graph.derivingTop = .passUnretained(self)
        // The traced copy calls the tracer inline: it is the hot path there.
        if traced {
            if graph.rerunBeganRecorded {
                graph.rerunBeganRecorded = false
            } else {
                withTracer { $0.rerunBeganInline(computation: id, firstRun: firstRun) }
            }
            if tracing.followsSecrets { graph.beginSecretTracking(self) }
        }
        graph.current = .passUnretained(self)
        beginTracking(tracing: tracing)
        let changed = recomputeDerived(self)
        finishTracking()
        if tracing.followsSecrets { graph.endSecretTracking(derivedBy: self) }
        // Off the chain, and the current computation back, before its
        // readers hear of the change. Untraced, no code runs before the
        // checks below: it leaves there, unless its checking reader
        // rederives next and takes its place.
        if traced { leaveRederive(restoring: previous) }
        // The end goes with the change and the first invalidation it records
        // in one call when no value event comes between them.
        // (A first value is no change: see `recomputeDerived`.)
        let endWaits = traced && traceRerunEnded(tracing: tracing, changed: changed ? derivedOutput : nil)
        activity = .idle
        if tracing.followsSecrets, changed || firstRun { recordDerivedValue() }
        firstRun = false
        // A change means the computed was there after its body ran (its
        // recompute function answers false once it is released), and its
        // output goes with it: no test, unless a traced run's recording of
        // the value ran code between.
        guard changed,
              let output = tracing.followsSecrets ? derivedOutput : .some(derivedOutput.unsafelyUnwrapped) else {
            if !traced { leaveRederive(restoring: previous) }
            return false
        }
        return output._withUnsafeGuaranteedRef { output in
            // Not the root: its reader is the computed that stepped into it.
            let readerNext = !isRoot && callerOnChain.unsafelyUnwrapped._withUnsafeGuaranteedRef { checker in
                guard output.isReadOnly(byChecking: checker) else { return false }
                // Checking, so not stopped: its `Computed` is there (see `Computed.deinit`).
                assert(checker.derived != nil, "a checking computed without its Computed")
                if traced { traceSoleReaderInvalidation(checker, output: output, endWaits: endWaits) }
                return true
            }
            if readerNext { return true }
            if !traced { leaveRederive(restoring: previous) }
            if traced && !endWaits { withTracer { $0.changed(dependency: output.id) } }
            output.notifySubscribers(traced: traced, endingRun: endWaits ? id : 0)
            return false
        }
    }

    /// Ends a rederive: `previous` is current again, and this computed is
    /// off the `derivingTop` chain.
    @inline(__always)
    func leaveRederive(restoring previous: Unmanaged<Computation>?) {
        graph.current = previous
        graph.derivingTop = callerOnChain
    }

    /// The events of `notifySubscribers(traced:endingRun:)` for a change read
    /// by one checking computed, `reader` (see `Dependency.isReadOnly(byChecking:)`):
    /// the run's end, the change and the invalidation, in one call when the
    /// end waits for them. With them goes the begin of `reader`'s rerun,
    /// which the refresh loop starts next (on return, `rederive` hands it
    /// over to be rederived) with no event or user code between: it then
    /// records no begin of its own.
    @inline(never)
    func traceSoleReaderInvalidation(_ reader: Computation, output: Dependency, endWaits: Bool) {
        let readerID = reader.id
        // The other way is a function of its own: this one keeps fewer values across its call.
        guard endWaits else { return traceChangeAndInvalidation(of: readerID, output: output.id) }
        // `refreshStep` rederives a dirty computed that has its body.
        guard reader.derived != nil else {
            return withTracer { $0.rerunEnded(computation: id, changed: output.id, invalidated: readerID) }
        }
        // Set before the call: nothing reads it before the reader's rederive,
        // and this frame then keeps nothing across the call.
        graph.rerunBeganRecorded = true
        withTracer { $0.rerunEnded(computation: id, changed: output.id, rerunning: readerID) }
    }

    /// `traceSoleReaderInvalidation`'s events when the run's end went before them.
    @inline(never)
    func traceChangeAndInvalidation(of readerID: UInt64, output: UInt64) {
        withTracer { $0.changed(dependency: output) }
        withTracer { $0.invalidated(computation: readerID, cause: .dependency, source: output) }
    }
}
