/// The invalidated computations a reactor reruns at its next flush, in order.
/// Graph lock held.
///
/// An entry keeps its computation alive without a reference count of its own:
/// a computation holds one reference to itself while it has dependency links
/// or entries here (`Computation.pendingEntries`; see `Computation.makeLink`),
/// so queueing one that has links, the usual case (it was invalidated by one),
/// costs no atomic retain and dropping its entry no release.
///
/// Entries are read by index through the owner's stored property each time:
/// dropping one, or running user code between two reads, may append more.
struct PendingQueue: ~Copyable {
    var entries: UnsafeMutablePointer<Unmanaged<Computation>>?
    var count = 0
    var capacity = 0

    init() {}

    var isEmpty: Bool { count == 0 }

    /// The entry at `index`, whose computation stays alive while it is queued.
    subscript(index: Int) -> Unmanaged<Computation> {
        entries.unsafelyUnwrapped[index]
    }

    /// Appends `computation`, kept alive by its entry.
    @inline(__always)
    mutating func append(_ computation: Computation) {
        computation.retainSelfIfUnheld()
        computation.pendingEntries &+= 1
        if count == capacity { grow() }
        entries.unsafelyUnwrapped[count] = .passUnretained(computation)
        count += 1
    }

    /// There is room for one more entry without growing.
    var hasRoom: Bool { count < capacity }

    /// `append(_:)` for a computation that holds itself already
    /// (`Computation.holdsItself`), with room in the queue.
    @inline(__always)
    mutating func appendHeld(_ computation: Computation) {
        computation.pendingEntries &+= 1
        entries.unsafelyUnwrapped[count] = .passUnretained(computation)
        count &+= 1
    }

    /// Drops the first `dropped` entries, keeping the ones after them in order.
    /// A computation whose last hold that was lets go of itself, which may
    /// deinitialize it and run code that appends more.
    mutating func dropFirst(_ dropped: Int) {
        var index = 0
        while index < dropped {
            entries.unsafelyUnwrapped[index]._withUnsafeGuaranteedRef { computation in
                computation.pendingEntries &-= 1
                // The entry count just lowered, tested alone first:
                // `releaseSelfIfUnheld()`'s two tests combined cost more here.
                if computation.pendingEntries == 0 { computation.releaseSelfIfUnheld() }
            }
            index += 1
        }
        let rest = count - dropped
        if rest > 0 {
            // Rare: appended while the first ones were dropped (by a deinit).
            let base = entries.unsafelyUnwrapped
            for index in 0..<rest { base[index] = base[dropped + index] }
        }
        count = rest
    }

    /// Drops every entry and frees the storage, for the owner's deinit.
    mutating func dropAll() {
        while count > 0 { dropFirst(count) }
        entries?.deallocate()
        entries = nil
        capacity = 0
    }

    @inline(never)
    private mutating func grow() {
        let newCapacity = Swift.max(4, capacity * 2)
        let grown = UnsafeMutablePointer<Unmanaged<Computation>>.allocate(capacity: newCapacity)
        if let entries {
            grown.initialize(from: entries, count: count)
            entries.deallocate()
        }
        entries = grown
        capacity = newCapacity
    }
}
