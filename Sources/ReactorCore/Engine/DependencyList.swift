/// The engine's record of what one computation read: the links of its current
/// (or last) run in reading order, the cursor by which a run keeps the links it
/// reads again, and the links it let go, kept for reuse so that a steady-state
/// rerun allocates nothing.
///
/// Stored in its computation (no object of its own: a read reaches the cursor
/// with one load) and guarded by the graph lock. It edits the dependency side of
/// each link only; the subscriber side is `SubscriberList`'s.
@usableFromInline
struct DependencyList {
    /// During a run, the first link of the last run not read again yet: the
    /// links before it were read in this run, those from it on may go. Nil
    /// outside a run (new links go at the tail).
    @usableFromInline var cursor: LinkPointer?
    /// The first link, in reading order.
    @usableFromInline var head: LinkPointer?
    /// Bumped each time the list is recycled, so that a walk over it that
    /// runs user code can tell its position went stale.
    @usableFromInline var generation = 0
    @usableFromInline var tail: LinkPointer?
    @usableFromInline var count = 0
    /// Links taken out of both lists, chained by `nextDependency`.
    var spare: LinkPointer?

    @usableFromInline
    init() {}

    /// A spare link, if there is one; the caller sets all its fields.
    mutating func takeSpare() -> LinkPointer? {
        guard let link = spare else { return nil }
        spare = link.pointee.nextDependency
        return link
    }

    /// Keeps `link`, out of both lists, for reuse.
    mutating func keepSpare(_ link: LinkPointer) {
        link.pointee.nextDependency = spare
        spare = link
    }

    /// Frees the spare links (the computation is going away).
    func deallocateSpares() {
        var next = spare
        while let link = next {
            next = link.pointee.nextDependency
            link.deallocate()
        }
    }

    /// Inserts `link` before the cursor (at the tail outside a run), as read
    /// now in this run's order.
    mutating func insertBeforeCursor(_ link: LinkPointer) {
        let next = cursor
        let previous = next == nil ? tail : next.unsafelyUnwrapped.pointee.previousDependency
        link.pointee.previousDependency = previous
        link.pointee.nextDependency = next
        if let previous { previous.pointee.nextDependency = link } else { head = link }
        if let next { next.pointee.previousDependency = link } else { tail = link }
    }

    /// Takes `link` out of the list (the cursor moves past it).
    mutating func remove(_ link: LinkPointer) {
        let previous = link.pointee.previousDependency
        let next = link.pointee.nextDependency
        if cursor == link { cursor = next }
        if let previous { previous.pointee.nextDependency = next } else { head = next }
        if let next { next.pointee.previousDependency = previous } else { tail = previous }
    }

    /// Moves `link`, read again out of order, before the cursor.
    mutating func moveBeforeCursor(_ link: LinkPointer) {
        remove(link)
        insertBeforeCursor(link)
        generation &+= 1
    }

    /// Takes `first` and every link after it out of the list, handing each to
    /// `detach` (which takes it out of its subscriber list) and keeping it for
    /// reuse. Ends a run, whose cursor it clears.
    @inline(__always)
    mutating func dropLinks(from first: LinkPointer, _ detach: (LinkPointer) -> Void) {
        cursor = nil
        let kept = first.pointee.previousDependency
        if let kept { kept.pointee.nextDependency = nil } else { head = nil }
        tail = kept
        var next: LinkPointer? = first
        while let link = next {
            next = link.pointee.nextDependency
            detach(link)
            keepSpare(link)
            count -= 1
        }
        generation &+= 1
    }
}
