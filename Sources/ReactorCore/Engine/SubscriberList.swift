/// The engine's record of who read one dependency: the links of the
/// computations that read it, in the order they are invalidated (creation
/// order, as Tracker's). Stored in its dependency and guarded by the graph
/// lock. It edits the subscriber side of each link only; the dependency side
/// is `DependencyList`'s.
@usableFromInline
struct SubscriberList {
    @usableFromInline var head: LinkPointer?
    @usableFromInline var tail: LinkPointer?
    @usableFromInline var count = 0

    @usableFromInline
    init() {}

    /// Inserts `link` after `previous`, or at the head when it is nil.
    mutating func insert(_ link: LinkPointer, after previous: LinkPointer?) {
        let next = previous == nil ? head : previous.unsafelyUnwrapped.pointee.nextSubscriber
        link.pointee.previousSubscriber = previous
        link.pointee.nextSubscriber = next
        if let previous { previous.pointee.nextSubscriber = link } else { head = link }
        if let next { next.pointee.previousSubscriber = link } else { tail = link }
        count += 1
    }

    /// Takes `link` out of the list.
    mutating func remove(_ link: LinkPointer) {
        let previous = link.pointee.previousSubscriber
        let next = link.pointee.nextSubscriber
        if let previous { previous.pointee.nextSubscriber = next } else { head = next }
        if let next { next.pointee.previousSubscriber = previous } else { tail = previous }
        count -= 1
    }

    /// Empties the list, returning its first link (the links still chain by
    /// `nextSubscriber`).
    mutating func removeAll() -> LinkPointer? {
        let first = head
        head = nil
        tail = nil
        count = 0
        return first
    }
}
