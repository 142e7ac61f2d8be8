// Pushing a change down the graph: a dependency's change invalidates its live
// readers; a computed that may have changed marks its readers possibly stale.

extension Dependency {
    /// Records the change (`changed`, if a tracer is installed) and tells the
    /// subscribers. Lock held. One check of the tracing flag covers the event
    /// and the invalidations it causes.
    @usableFromInline
    func publishChange() {
        if TraceEmit.isOn { return publishChangeTraced() }
        publishChangeUntraced()
    }

    /// The untraced copy of `publishChange()`, for a caller that has read the tracing flag.
    @inlinable @inline(__always)
    func publishChangeUntraced() {
        // Out of line: a write nobody reads sets up no frame for the loop.
        if subscribers.head != nil { notifySubscribersUntraced() }
    }

    @usableFromInline @inline(never)
    func notifySubscribersUntraced() {
        notifySubscribers(traced: false)
    }

    /// The traced copy of `publishChange()`, out of line (see `Computation.refreshStaleDerived()`).
    @usableFromInline @inline(never)
    func publishChangeTraced() {
        withTracer { $0.changed(dependency: id) }
        if subscribers.head != nil { notifySubscribersTraced() }
    }

    @inline(never)
    func notifySubscribersTraced() {
        notifySubscribers(traced: true)
    }

    /// Tells each live subscriber that this dependency changed.
    @usableFromInline
    func notifySubscribers() {
        notifySubscribers(traced: TraceEmit.isOn)
    }

    /// `notifySubscribers()` within an update that has read the tracing flag:
    /// `traced` says whether to record the invalidations. `endingRun`, when
    /// not 0, is the computed whose run gave this dependency (its output) a
    /// new value: the end of that run and this `changed` are still to send,
    /// with the first invalidation recorded in one call
    /// (`ReactorTracer.rerunEnded(computation:changed:invalidated:)`) when
    /// the first live subscriber records one, else before that subscriber's
    /// callbacks or invalidation, or at the end.
    @inline(__always)
    func notifySubscribers(traced: Bool, endingRun: UInt64 = 0) {
        var ending = endingRun
        // In place while no user code runs: invalidating a subscriber without
        // callbacks changes no list. The first one with callbacks hands the
        // rest (the same as a copy taken at the start would hold) to the copy.
        var cursor = subscribers.head
        while let link = cursor {
            let runsCallbacks = link.pointee.computation._withUnsafeGuaranteedRef { computation in
                guard computation.epoch == link.pointee.epoch else { return false }
                if computation.hasInvalidateCallbacks { return true }
                // The first live subscriber: its invalidation goes with the
                // end and the change if it records one; else they go now.
                var recordsInvalidation = traced
                if traced, ending != 0 {
                    if computation.recordsInvalidation {
                        withTracer { $0.rerunEnded(computation: ending, changed: id, invalidated: computation.id) }
                        recordsInvalidation = false
                    } else {
                        traceEndAndChange(ofRun: ending)
                    }
                    ending = 0
                }
                // Live, tested above, and no user code since: none runs in this loop.
                // One call site: a second inlined copy made the traced refresh
                // too large for the optimizer to inline this one.
                computation.dependencyChanged(self, traced: recordsInvalidation, mayHaveCallbacks: false, live: true)
                return false
            }
            if runsCallbacks {
                if traced, ending != 0 { traceEndAndChange(ofRun: ending) }
                // This dependency, reached through the link: the loop (inlined
                // into a rederive) then keeps one value fewer across its calls.
                assert(link.pointee.dependency.toOpaque() == Unmanaged.passUnretained(self).toOpaque())
                link.pointee.dependency._withUnsafeGuaranteedRef { $0.notifySubscribersCopying(from: link, traced: traced) }
                return
            }
            cursor = link.pointee.nextSubscriber
        }
        if traced, ending != 0 { traceEndAndChange(ofRun: ending) }
    }

    /// True if `checker`, the computed whose check stepped into the computed
    /// this is the output of, is the only reader of this dependency and is
    /// still checking, with no `onInvalidate` callbacks.
    ///
    /// The rederive that changed the value then has the checker rederived
    /// at once, which is what `notifySubscribers` would lead to with less
    /// work: a checking computed is not running (no cursor to clear), it is
    /// possibly stale rather than clean (its readers are marked already), and
    /// marked dirty it would be rederived as soon as its check stops, which
    /// makes its links stale then. One with `onInvalidate` callbacks goes
    /// the general way.
    ///
    /// The one link is the checker's: its check stepped in through it. And it
    /// is live: a computed still possibly stale has not been invalidated
    /// (which makes it dirty) nor rerun (which would have ended its check)
    /// since it read this dependency.
    @inline(__always)
    func isReadOnly(byChecking checker: Computation) -> Bool {
        // One subscriber: one compare of the count rather than the two ends.
        guard subscribers.count == 1 else { return false }
        return checker.derivedState == .check && !checker.hasInvalidateCallbacks
    }

    /// The end of the run of `computation` and this `changed`, in one call,
    /// where no invalidation can go with them.
    @inline(__always)
    func traceEndAndChange(ofRun computation: UInt64) {
        withTracer { $0.rerunEnded(computation: computation, changed: id) }
    }

    /// Notifies the subscribers from `first` on through a copy of the list
    /// (into a reused scratch stack, so a write allocates nothing): the
    /// callbacks that invalidation runs may add or remove subscribers.
    @inline(never)
    private func notifySubscribersCopying(from first: LinkPointer, traced: Bool) {
        // Retained: a callback may drop what owns this dependency (a write
        // to a `@Reactive` holds its storage unretained).
        let retained = Unmanaged.passUnretained(self).retain()
        defer { retained.release() }
        let base = graph.scratch.count
        var cursor: LinkPointer? = first
        while let link = cursor {
            if link.pointee.isLive { graph.scratch.append(link.pointee.computation.takeUnretainedValue()) }
            cursor = link.pointee.nextSubscriber
        }
        var index = base
        while index < graph.scratch.count {
            graph.scratch[index].dependencyChanged(self, traced: traced)
            index += 1
        }
        while graph.scratch.count > base { graph.scratch.removeLast() }
    }

    /// Marks the subscribers of a computed's output as possibly stale, and
    /// theirs in turn. Runs no user code, so the lists are walked in place;
    /// the last subscriber's readers are walked next rather than recursively,
    /// so a chain costs no stack.
    @inline(never)
    func propagateCheck() {
        propagateCheckInline()
    }

    /// `propagateCheck()` inlined into its caller: a write's notification
    /// loop, which marks many computeds dirty, then needs no call (and no
    /// frame) per computed; the walk's own branches call the outlined copy.
    @inline(__always)
    func propagateCheckInline() {
        var cursor = subscribers.head
        while let link = cursor {
            cursor = link.pointee.nextSubscriber
            guard link.pointee.isLive else { continue }
            // A computed's link holds its output (see `Link`), an autorun's
            // nil: the kind's test is the load the walk needs next anyway.
            guard let output = link.pointee.readerOutput else {
                link.pointee.computation._withUnsafeGuaranteedRef { $0.markAutorunCheck() }
                continue
            }
            let marked = link.pointee.computation._withUnsafeGuaranteedRef { reader in
                guard reader.derivedState == .clean else { return false }
                reader.derivedState = .check
                return true
            }
            guard marked else { continue }
            if cursor == nil {
                cursor = output._withUnsafeGuaranteedRef { $0.subscribers.head }
            } else {
                output._withUnsafeGuaranteedRef { $0.propagateCheck() }
            }
        }
    }
}

extension Computation {
    /// A computed this autorun read may have changed (reached through one of
    /// its live links): it is queued for the flush to check those computeds.
    /// Neither invalidated nor stopped: either makes every link stale (see
    /// `Computation.invalidate(cause:source:traced:mayHaveCallbacks:live:)`).
    @inline(__always)
    func markAutorunCheck() {
        assert(!isDerived, "a computed's links hold its output")
        assert(!invalidated && !stopped, "an invalidated or stopped autorun reached through a live link")
        if checkPending { return }
        checkPending = true
        reactor.enqueue(self, linked: true)  // reached through a live link
    }
}
