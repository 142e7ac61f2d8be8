import ReactorTraceFormat

/// Counts, per computation, the reruns that followed each causal chain shape, for
/// the chain most of its reruns followed (``TraceProfile``'s dominant chain).
///
/// A chain's shape (``CauseLink/stepCode`` of every step, root first, gap lengths
/// included) is interned once per link as an id, keyed by the shape of the chain
/// before its last step and cached on the link (chains share their links toward the
/// root, so a rerun costs at most a lookup for its new link); counts are kept per
/// (computation, shape) in an open-addressing table (``WordPairTable``). A
/// `Dictionary` keyed by chains compared link by link took a third of a `report`
/// pass, most of it retaining the links its probes compared.
struct RerunShapeCounter {
    /// Shape ids by (the shape before the last step, the last step's code).
    private var shapes = WordPairTable()
    private var shapeCount: Int32 = 0
    /// Count slots by (computation's position, shape id).
    private var slots = WordPairTable()
    private(set) var counts: [Int] = []

    /// The id of the chain's shape: the same for two chains iff they have the same
    /// length and, step by step, the same ``CauseLink/stepCode``.
    mutating func shape(of link: CauseLink) -> Int32 {
        if link.profileShapeID >= 0 { return link.profileShapeID }
        let parent = link.nextLink.map { shape(of: $0) } ?? -1
        let code = link.stepCode
        // Kinds are 1...6 (8 bits); details are a node position and a cause (at most
        // 40 bits) or a gap's length in steps, below 2^56 for any trace that fits a disk.
        let key = UInt64(bitPattern: code.kind) << 56 | (UInt64(bitPattern: code.detail) & (1 << 56 - 1))
        let parentWord = UInt32(bitPattern: parent)
        let id: Int32
        if let known = shapes.value(parentWord, key) {
            id = known
        } else {
            id = shapeCount
            shapeCount += 1
            shapes.insert(UInt32(bitPattern: parent), key, value: id)
        }
        link.profileShapeID = id
        return id
    }

    /// The slot of the count of reruns of the computation at `position` that followed `shape`
    /// (made, at zero, when there is none yet).
    mutating func slot(ofComputation position: Int32, shape: Int32) -> Int32 {
        if let known = slots.value(UInt32(bitPattern: position), UInt64(UInt32(bitPattern: shape))) { return known }
        let slot = Int32(counts.count)
        counts.append(0)
        slots.insert(UInt32(bitPattern: position), UInt64(UInt32(bitPattern: shape)), value: slot)
        return slot
    }

    /// Counts one more rerun in `slot`; returns the new count.
    mutating func increment(_ slot: Int32) -> Int {
        counts[Int(slot)] += 1
        return counts[Int(slot)]
    }
}
