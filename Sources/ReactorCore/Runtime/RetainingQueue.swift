/// A growable array of object references for the flush queues, each retained
/// once by its entry. Unlike `[Element]`, appending and removing check no
/// uniqueness and reading an entry retains nothing. Graph lock held.
///
/// Entries are read by index through the owner's stored property each time:
/// releasing one, or running user code between two reads, may append more.
@usableFromInline
struct RetainingQueue<Element: AnyObject>: ~Copyable {
    @usableFromInline var entries: UnsafeMutablePointer<Unmanaged<Element>>?
    @usableFromInline var count = 0
    var capacity = 0

    init() {}

    /// Releases every entry and frees the storage, for the owner's deinit
    /// (no `deinit` here: the inlinable accessors of `Graph` cannot inline one).
    mutating func releaseAll() {
        for index in 0..<count { entries.unsafelyUnwrapped[index].release() }
        count = 0
        entries?.deallocate()
        entries = nil
        capacity = 0
    }

    @inlinable
    var isEmpty: Bool { count == 0 }

    /// The entry at `index`, which stays retained by the queue.
    subscript(index: Int) -> Unmanaged<Element> {
        entries.unsafelyUnwrapped[index]
    }

    /// Appends `element`, retained by its entry.
    mutating func append(_ element: Element) {
        if count == capacity { grow() }
        entries.unsafelyUnwrapped[count] = .passRetained(element)
        count += 1
    }

    /// Removes the last entry; the caller owns the reference it held.
    mutating func popLast() -> Unmanaged<Element>? {
        guard count > 0 else { return nil }
        count -= 1
        return entries.unsafelyUnwrapped[count]
    }

    /// Removes the first `released` entries, whose references the caller has
    /// released, keeping the ones after them in order.
    mutating func removeFirst(released: Int) {
        let rest = count - released
        if rest > 0 {
            // Rare: appended while the first ones were released (by a deinit).
            let base = entries.unsafelyUnwrapped
            for index in 0..<rest { base[index] = base[released + index] }
        }
        count = rest
    }

    @inline(never)
    private mutating func grow() {
        let newCapacity = Swift.max(4, capacity * 2)
        let grown = UnsafeMutablePointer<Unmanaged<Element>>.allocate(capacity: newCapacity)
        if let entries {
            grown.initialize(from: entries, count: count)
            entries.deallocate()
        }
        entries = grown
        capacity = newCapacity
    }
}
