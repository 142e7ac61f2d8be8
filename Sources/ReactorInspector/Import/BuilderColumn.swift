/// A growable run of elements in memory the ``TraceModelBuilder`` owns, for its
/// per-node, per-edge and per-thread state: an element is updated in place
/// through its address, without the uniqueness check (and copy-on-write
/// branch) every in-place update of an `Array` stored in a class costs. The
/// builder touches these several times per event, tens of millions of times.
///
/// Not copy-on-write: copies share the storage, and the owner calls
/// ``deallocate()`` exactly once. Internal storage of one builder, used on one thread.
struct BuilderColumn<Element>: RandomAccessCollection {
    private var base: UnsafeMutablePointer<Element>
    private var capacity: Int
    /// How many elements there are.
    private(set) var count = 0

    init() {
        capacity = 16
        base = .allocate(capacity: capacity)
    }

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    /// The element at `position`, read or updated in place (bounds-checked).
    subscript(position: Int) -> Element {
        unsafeAddress {
            precondition(position >= 0 && position < count, "BuilderColumn index out of range")
            return UnsafePointer(base + position)
        }
        nonmutating unsafeMutableAddress {
            precondition(position >= 0 && position < count, "BuilderColumn index out of range")
            return base + position
        }
    }

    /// The address of the element at `position` (bounds-checked), for a
    /// wrapper's own in-place subscript; valid until the column grows.
    @inline(__always)
    func address(of position: Int) -> UnsafeMutablePointer<Element> {
        precondition(position >= 0 && position < count, "BuilderColumn index out of range")
        return base + position
    }

    mutating func append(_ element: Element) {
        if count == capacity { grow(to: capacity * 2) }
        (base + count).initialize(to: element)
        count += 1
    }

    /// Appends `element` until there are `newCount` elements.
    mutating func extend(to newCount: Int, with element: Element) {
        guard newCount > count else { return }
        if newCount > capacity { grow(to: Swift.max(newCount, capacity * 2)) }
        (base + count).initialize(repeating: element, count: newCount - count)
        count = newCount
    }

    private mutating func grow(to newCapacity: Int) {
        let grown = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        grown.moveInitialize(from: base, count: count)
        base.deallocate()
        base = grown
        capacity = newCapacity
    }

    /// The elements as an array (a copy).
    var array: [Element] { Array(UnsafeBufferPointer(start: base, count: count)) }

    /// Destroys the elements and frees the storage; the column must not be used after.
    func deallocate() {
        base.deinitialize(count: count)
        base.deallocate()
    }
}
