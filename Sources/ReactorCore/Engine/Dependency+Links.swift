// The dependency side of the engine's edges: recording a read (keeping the
// link at the run's cursor, or making one) and letting links go.

extension Dependency {
    /// Adds the edge `computation -> self` unless it exists. Lock held.
    ///
    /// During a run, a dependency read in the same order as in the last run
    /// keeps its link: only its stamp changes, and no list is touched.
    @inlinable @inline(__always)
    func link(_ computation: Computation) -> Bool {
        // An invalidated computation has no cursor (`Computation.dropEdges()`).
        // A traced run's reads go to `linkOffCursor`, which records them: the
        // event's call and the check stay small in the code that inlines this
        // (a read of a computed, in the user's closure), which then inlines
        // as with tracing compiled out.
        if let next = computation.dependencies.cursor, next.pointee.dependency.refers(to: self), !computation.runTracing.isTraced {
            next.pointee.epoch = computation.epoch
            computation.dependencies.cursor = next.pointee.nextDependency
            return true
        }
        if isReadAgainInARow(by: computation) { return false }
        return linkOffCursor(computation)
    }

    /// True if the link `computation` kept (or made) last in this run is to
    /// this dependency: a read repeated in a row, with nothing to record.
    /// (An invalidated computation's links are all stale, so it answers false.)
    @inlinable @inline(__always)
    func isReadAgainInARow(by computation: Computation) -> Bool {
        let next = computation.dependencies.cursor
        let previous = next == nil ? computation.dependencies.tail : next.unsafelyUnwrapped.pointee.previousDependency
        guard let previous else { return false }
        return previous.pointee.epoch == computation.epoch && previous.pointee.dependency.refers(to: self)
    }

    /// Records a read by `current`, the graph's current computation (lock
    /// held), in the two common cases of an untraced run, with no call: the
    /// read keeps the link at the cursor, or repeats the read just recorded;
    /// and, with one call (`linkTracedInPlace`), a traced run's read at the
    /// cursor (without values). True then; otherwise false, having done
    /// nothing: the read must go through `dependLocked()`.
    @inlinable @inline(__always)
    func dependInPlace(by current: Unmanaged<Computation>) -> Bool {
        current._withUnsafeGuaranteedRef { computation in
            if _slowPath(computation.runTracing.isTraced) { return linkTracedInPlace(computation) }
            if let next = computation.dependencies.cursor, next.pointee.dependency.refers(to: self) {
                next.pointee.epoch = computation.epoch
                computation.dependencies.cursor = next.pointee.nextDependency
                return true
            }
            return isReadAgainInARow(by: computation)
        }
    }

    /// `link(_:)` for a read that is not the next one of the last run's order,
    /// or that is in a traced run.
    @usableFromInline
    func linkOffCursor(_ computation: Computation) -> Bool {
        // Dispatches before any frame is set up: a traced read in order does
        // not pay for the large one of `linkOutOfOrder`.
        // A run without values pays nothing for secrets: the case comes first
        // and the secret's check is in the other.
        switch computation.runTracing {
        case .traced:
            if let next = computation.dependencies.cursor, next.pointee.dependency.refers(to: self) {
                return linkTracedInOrder(computation, next)
            }
        case .tracedWithValues:
            if isSecret { graph.noteSecretRead() }
            if let next = computation.dependencies.cursor, next.pointee.dependency.refers(to: self) {
                return linkTracedInOrder(computation, next)
            }
        case .untrackedWithValues, .actionWithValues:
            // Not a dependency; only its secrecy matters.
            if isSecret { graph.noteUntrackedSecretRead(in: computation) }
            return false
        case .untraced:
            break
        }
        return linkOutOfOrder(computation)
    }

    /// `dependInPlace(by:)` in a traced run: keeps the link at the cursor
    /// and records the read, then returns true; returns false, having done
    /// nothing, for a read off the cursor, or in a run that records values
    /// (`linkOffCursor(_:)` notes a secret read first). Non-generic and out
    /// of line: a traced read in order is one call from the reader's inlined
    /// code, where `Computed.valueLinkingSlowly()` took two.
    @usableFromInline @inline(never)
    func linkTracedInPlace(_ computation: Computation) -> Bool {
        guard case .traced = computation.runTracing, let next = computation.dependencies.cursor,
              next.pointee.dependency.refers(to: self) else { return false }
        next.pointee.epoch = computation.epoch
        computation.dependencies.cursor = next.pointee.nextDependency
        return TraceEmit.dependInPlace(computation: computation.id, dependency: id)
    }

    /// `link(_:)`'s keeping of the link at the cursor, in a traced run (a run
    /// with values comes through `linkOffCursor(_:)`, which notes a secret).
    @usableFromInline @inline(never)
    func linkTracedInOrder(_ computation: Computation, _ next: LinkPointer) -> Bool {
        next.pointee.epoch = computation.epoch
        computation.dependencies.cursor = next.pointee.nextDependency
        withTracer { $0.depend(computation: computation.id, dependency: id) }
        return true
    }

    @inline(never)
    func linkOutOfOrder(_ computation: Computation) -> Bool {
        // Tracker adds then at once removes an invalidated computation (its
        // onInvalidate runs immediately), so it reports a new dependent that
        // is not kept.
        if computation.isInvalidatedOrDirty { return true }
        let epoch = computation.epoch
        let next = computation.dependencies.cursor
        if let derivedOwner, derivedOwner.refers(to: computation) { return false }  // a computed reading itself: a reported cycle
        // Read twice in a row: the link just kept.
        let previous = next == nil ? computation.dependencies.tail : next!.pointee.previousDependency
        if let previous, previous.pointee.epoch == epoch, previous.pointee.dependency.refers(to: self) { return false }
        if let existing = link(to: computation) {
            if existing.pointee.epoch == epoch { return false }
            // Read in the last run too, but in another order.
            computation.moveBeforeCursor(existing)
            if TraceEmit.isOn { TraceEmit.depend(computation: computation.id, dependency: id) }
            return true
        }
        let link = computation.makeLink(to: self)
        // Subscribers stay in creation (id) order, the order in which Tracker
        // invalidates a dependency's dependents. Computations usually rerun in
        // that order, so the new link almost always goes at the tail.
        let newID = computation.id
        var previousSubscriber = subscribers.tail
        while let candidate = previousSubscriber, candidate.pointee.computation._withUnsafeGuaranteedRef({ $0.id }) > newID {
            previousSubscriber = candidate.pointee.previousSubscriber
        }
        subscribers.insert(link, after: previousSubscriber)
        if TraceEmit.isOn { TraceEmit.depend(computation: computation.id, dependency: id) }
        return true
    }

    /// The link from `computation` to this dependency, live or stale, if any:
    /// walks the shorter of the two lists that could hold it.
    private func link(to computation: Computation) -> LinkPointer? {
        if let tail = subscribers.tail, tail.pointee.computation.refers(to: computation) { return tail }
        if subscribers.count <= computation.dependencies.count {
            var cursor = subscribers.head
            while let link = cursor {
                if link.pointee.computation.refers(to: computation) { return link }
                cursor = link.pointee.nextSubscriber
            }
        } else {
            var cursor = computation.dependencies.head
            while let link = cursor {
                if link.pointee.dependency.refers(to: self) { return link }
                cursor = link.pointee.nextDependency
            }
        }
        return nil
    }

    /// Clears the copy of `derivedOwner` in the links of this dependency's
    /// subscribers (see `Link.source`): its computed is going away. Lock held.
    func forgetDerivedOwnerInSubscribers() {
        var cursor = subscribers.head
        while let link = cursor {
            link.pointee.source = nil
            cursor = link.pointee.nextSubscriber
        }
    }

    /// Drops every edge into this dependency (it is going away). Lock held.
    func detachAllSubscribers() {
        var cursor = subscribers.removeAll()
        while let link = cursor {
            cursor = link.pointee.nextSubscriber
            // A strong reference: releasing the link may release the computation.
            let computation = link.pointee.computation.takeUnretainedValue()
            computation.releaseLink(link)
        }
    }
}
