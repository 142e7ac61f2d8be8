/// A unit of reactive data that computations depend on (Tracker's `Dependency`).
///
/// Reading data calls ``depend(_:)``; writing it calls ``changed()``, which
/// invalidates every dependent computation and removes it as a dependent.
public final class Dependency: @unchecked Sendable {
    // @unchecked Sendable: every mutable field is guarded by the graph lock.

    /// The process-unique id under which this dependency appears in traces.
    public let id: UInt64
    /// The name under which this dependency appears in traces and graphs.
    public var name: String? { graph.lock.withLock { storedName } }

    /// The process-wide graph (see `Computation.graph`).
    @usableFromInline let graph: Graph = ReactorCore.graph
    // What a write or a read touches first, in the first cache line.
    @usableFromInline @exclusivity(unchecked) var subscribersHead: LinkPointer?
    /// The computed value whose output this dependency is, if any: reading it
    /// may first need that computed to refresh.
    @usableFromInline @exclusivity(unchecked) var derivedOwner: Unmanaged<Computation>?
    @usableFromInline @exclusivity(unchecked) var subscribersTail: LinkPointer?
    @usableFromInline @exclusivity(unchecked) var subscriberCount = 0
    @usableFromInline @exclusivity(unchecked) var storedName: String?

    /// Creates a dependency; `name` is how traces and graphs show it.
    public init(_ name: String? = nil) {
        id = ReactorTracing.makeID()
        storedName = name
        withTracer { $0.nodeCreated(id, kind: .dependency, name: name ?? "", parent: 0) }
    }

    /// Creates the dependency of a reactive value, property, subject or computed,
    /// sharing its owner's id and kind in traces.
    @usableFromInline
    init(id: UInt64, name: String?) {
        self.id = id
        storedName = name
    }

    deinit {
        graph.lock.withLock { detachAllSubscribers() }
    }

    /// Declares that `computation` (the current computation if `nil`) depends on
    /// this dependency, so it is invalidated the next time it changes.
    ///
    /// Returns `true` if the computation is a new dependent, `false` if it was
    /// one already or if there is no computation to depend.
    @discardableResult
    public func depend(_ computation: Computation? = nil) -> Bool {
        if let computation {
            return graph.lock.withLock { link(computation) }
        }
        // Only a thread inside a computation holds the lock, so any other
        // caller is outside every computation: nothing to record.
        guard graph.lock.isHeldByCurrentThread else { return false }
        return dependLocked()
    }

    /// `depend()` for a caller that holds the graph lock.
    @inlinable @inline(__always)
    @discardableResult
    func dependLocked() -> Bool {
        dependLocked(in: graph)
    }

    /// `dependLocked()` with the graph at hand (the caller's, the same one):
    /// spares a load of this dependency's before `current` can be read.
    @inlinable @inline(__always)
    @discardableResult
    func dependLocked(in graph: Graph) -> Bool {
        guard let current = graph.current else { return false }
        return current._withUnsafeGuaranteedRef { link($0) }
    }

    /// Invalidates every dependent computation and removes them as dependents.
    public func changed() {
        graph.operation { publishChange() }
    }

    /// True if one or more computations depend on this dependency.
    public var hasDependents: Bool {
        graph.lock.withLock {
            var cursor = subscribersHead
            while let link = cursor {
                if link.pointee.isLive { return true }
                cursor = link.pointee.nextSubscriber
            }
            return false
        }
    }
}

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
        if let next = computation.cursor, next.pointee.dependency.refers(to: self), !computation.runIsTraced {
            next.pointee.epoch = computation.epoch
            computation.cursor = next.pointee.nextDependency
            return true
        }
        return linkOffCursor(computation)
    }

    /// `link(_:)` for a read that is not the next one of the last run's order,
    /// or that is in a traced run.
    @usableFromInline
    func linkOffCursor(_ computation: Computation) -> Bool {
        // Dispatches before any frame is set up: a traced read in order does
        // not pay for the large one of `linkOutOfOrder`.
        if computation.runIsTraced, let next = computation.cursor, next.pointee.dependency.refers(to: self) {
            return linkTracedInOrder(computation, next)
        }
        return linkOutOfOrder(computation)
    }

    /// `link(_:)`'s keeping of the link at the cursor, in a traced run.
    @inline(never)
    func linkTracedInOrder(_ computation: Computation, _ next: LinkPointer) -> Bool {
        next.pointee.epoch = computation.epoch
        computation.cursor = next.pointee.nextDependency
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
        let next = computation.cursor
        if let derivedOwner, derivedOwner.refers(to: computation) { return false }  // a computed reading itself: a reported cycle
        // Read twice in a row: the link just kept.
        let previous = next == nil ? computation.dependenciesTail : next!.pointee.previousDependency
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
        var previousSubscriber = subscribersTail
        while let candidate = previousSubscriber, candidate.pointee.computation._withUnsafeGuaranteedRef({ $0.id }) > newID {
            previousSubscriber = candidate.pointee.previousSubscriber
        }
        let nextSubscriber = previousSubscriber == nil ? subscribersHead : previousSubscriber!.pointee.nextSubscriber
        link.pointee.previousSubscriber = previousSubscriber
        link.pointee.nextSubscriber = nextSubscriber
        if let previousSubscriber { previousSubscriber.pointee.nextSubscriber = link } else { subscribersHead = link }
        if let nextSubscriber { nextSubscriber.pointee.previousSubscriber = link } else { subscribersTail = link }
        subscriberCount += 1
        if TraceEmit.isOn { TraceEmit.depend(computation: computation.id, dependency: id) }
        return true
    }

    /// The link from `computation` to this dependency, live or stale, if any:
    /// walks the shorter of the two lists that could hold it.
    private func link(to computation: Computation) -> LinkPointer? {
        if let tail = subscribersTail, tail.pointee.computation.refers(to: computation) { return tail }
        if subscriberCount <= computation.dependencyCount {
            var cursor = subscribersHead
            while let link = cursor {
                if link.pointee.computation.refers(to: computation) { return link }
                cursor = link.pointee.nextSubscriber
            }
        } else {
            var cursor = computation.dependenciesHead
            while let link = cursor {
                if link.pointee.dependency.refers(to: self) { return link }
                cursor = link.pointee.nextDependency
            }
        }
        return nil
    }

    /// Removes `link` from this dependency's subscriber list. Lock held.
    @usableFromInline
    func removeSubscriber(_ link: LinkPointer) {
        let previous = link.pointee.previousSubscriber
        let next = link.pointee.nextSubscriber
        if let previous { previous.pointee.nextSubscriber = next } else { subscribersHead = next }
        if let next { next.pointee.previousSubscriber = previous } else { subscribersTail = previous }
        subscriberCount -= 1
    }

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
        if subscribersHead != nil { notifySubscribersUntraced() }
    }

    @usableFromInline @inline(never)
    func notifySubscribersUntraced() {
        notifySubscribers(traced: false)
    }

    /// The traced copy of `publishChange()`, out of line (see `Computation.refreshStaleDerived()`).
    @usableFromInline @inline(never)
    func publishChangeTraced() {
        withTracer { $0.changed(dependency: id) }
        if subscribersHead != nil { notifySubscribersTraced() }
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
    /// `traced` says whether to record the invalidations.
    @inline(__always)
    func notifySubscribers(traced: Bool) {
        // In place while no user code runs: invalidating a subscriber without
        // callbacks changes no list. The first one with callbacks hands the
        // rest (the same as a copy taken at the start would hold) to the copy.
        var cursor = subscribersHead
        while let link = cursor {
            let runsCallbacks = link.pointee.computation._withUnsafeGuaranteedRef { computation in
                guard computation.epoch == link.pointee.epoch else { return false }
                if computation.hasInvalidateCallbacks { return true }
                computation.dependencyChanged(self, traced: traced)
                return false
            }
            if runsCallbacks {
                notifySubscribersCopying(from: link, traced: traced)
                return
            }
            cursor = link.pointee.nextSubscriber
        }
    }

    /// Notifies the subscribers from `first` on through a copy of the list
    /// (into a reused scratch stack, so a write allocates nothing): the
    /// callbacks that invalidation runs may add or remove subscribers.
    @inline(never)
    private func notifySubscribersCopying(from first: LinkPointer, traced: Bool) {
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
    func propagateCheck() {
        var cursor = subscribersHead
        while let link = cursor {
            cursor = link.pointee.nextSubscriber
            let marked = link.pointee.computation._withUnsafeGuaranteedRef {
                $0.epoch == link.pointee.epoch && $0.markCheck()
            }
            // The output from the link, not the computation: one load fewer
            // between a link and the next (see `Link`).
            guard marked, let output = link.pointee.readerOutput else { continue }
            if cursor == nil {
                cursor = output._withUnsafeGuaranteedRef { $0.subscribersHead }
            } else {
                output._withUnsafeGuaranteedRef { $0.propagateCheck() }
            }
        }
    }

    /// Clears the copy of `derivedOwner` in the links of this dependency's
    /// subscribers (see `Link.source`): its computed is going away. Lock held.
    func forgetDerivedOwnerInSubscribers() {
        var cursor = subscribersHead
        while let link = cursor {
            link.pointee.source = nil
            cursor = link.pointee.nextSubscriber
        }
    }

    /// Drops every edge into this dependency (it is going away). Lock held.
    private func detachAllSubscribers() {
        var cursor = subscribersHead
        subscribersHead = nil
        subscribersTail = nil
        subscriberCount = 0
        while let link = cursor {
            cursor = link.pointee.nextSubscriber
            // A strong reference: releasing the link may release the computation.
            let computation = link.pointee.computation.takeUnretainedValue()
            computation.releaseLink(link)
        }
    }
}
