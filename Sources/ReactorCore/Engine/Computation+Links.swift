// The computation side of the engine's edges: a run keeps the links it reads
// again in place, takes new ones from its spare links, and drops the rest
// when it ends (see `Link` and `DependencyList`). While a computation has
// dependencies, they keep it alive, as Tracker's computations live while
// their dependencies do, and so do its entries in the pending queue: it holds
// one reference to itself while it has either, taken on the first and let go
// with the last.

extension Computation {
    /// Starts a run: every link becomes stale, and the run keeps those it reads
    /// again as it goes (the cursor walks the list in the last run's order).
    @inline(__always)
    func beginTracking(tracing: RunTracing) {
        epoch &+= 1
        dependencies.cursor = dependencies.head
        runTracing = tracing
    }

    /// Ends a run: unlinks the links of the last run that this one did not read.
    @inline(__always)
    func finishTracking() {
        // Usually none: a rerun reads what its last run read.
        if let first = dependencies.cursor { unlinkUnread(from: first) }
    }

    /// Unlinks `first` and the links after it, not read in the run ending.
    @inline(never)
    func unlinkUnread(from first: LinkPointer) {
        dependencies.dropLinks(from: first) { link in
            link.pointee.dependency._withUnsafeGuaranteedRef { $0.subscribers.remove(link) }
        }
        releaseSelfIfUnheld()
    }

    /// It holds the reference to itself (it has links or pending entries).
    @inline(__always)
    var holdsItself: Bool { dependencies.count != 0 || pendingEntries != 0 }

    /// Takes the reference this computation holds to itself, unless it holds
    /// it already (for its links or its pending entries): before a first link
    /// or entry is added.
    @inline(__always)
    func retainSelfIfUnheld() {
        if dependencies.count == 0 && pendingEntries == 0 { _ = Unmanaged.passUnretained(self).retain() }
    }

    /// Lets go of the reference this computation holds to itself once it has
    /// neither links nor pending entries: after the last of them went. May
    /// deinitialize it.
    @inline(__always)
    func releaseSelfIfUnheld() {
        if dependencies.count == 0 && pendingEntries == 0 { Unmanaged.passUnretained(self).release() }
    }

    /// Takes a spare link (or allocates one) and inserts it into this
    /// computation's dependency list before the cursor, as read in this run.
    @usableFromInline
    func makeLink(to dependency: Dependency) -> LinkPointer {
        let link: LinkPointer
        if let spare = dependencies.takeSpare() {
            link = spare
            link.pointee.dependency = .passUnretained(dependency)
        } else {
            link = .allocate(capacity: 1)
            link.initialize(to: Link(dependency: .passUnretained(dependency), computation: .passUnretained(self)))
        }
        link.pointee.epoch = epoch
        link.pointee.source = dependency.derivedOwner
        link.pointee.readerOutput = derivedOutput
        dependencies.insertBeforeCursor(link)
        retainSelfIfUnheld()
        dependencies.count += 1
        return link
    }

    /// Moves a link of the last run, read again out of order, before the cursor.
    @usableFromInline
    func moveBeforeCursor(_ link: LinkPointer) {
        dependencies.moveBeforeCursor(link)
        link.pointee.epoch = epoch
    }

    /// Drops every dependency edge, keeping the links for the next run.
    func unlinkAllDependencies() {
        dependencies.cursor = nil
        guard dependencies.count > 0, let first = dependencies.head else { return }
        unlinkUnread(from: first)
    }

    /// Removes one link whose dependency is going away. May release self.
    func releaseLink(_ link: LinkPointer) {
        dependencies.remove(link)
        dependencies.keepSpare(link)
        dependencies.count -= 1
        dependencies.generation &+= 1
        releaseSelfIfUnheld()
    }
}
