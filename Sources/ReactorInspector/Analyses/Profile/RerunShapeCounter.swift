import ReactorTraceFormat

/// Counts, per computation, the reruns that followed each causal chain shape, for
/// the chain most of its reruns followed (``TraceProfile``'s dominant chain).
///
/// A chain's shape (``CauseLink/stepCode`` of every step, root first, gap lengths
/// included) is interned once per link as an id, keyed by the shape of the chain
/// before its last step and cached on the link (chains share their links toward the
/// root, so a rerun costs at most a lookup for each of its new links) in an
/// open-addressing table (``WordPairTable``). A rerun's chain ends in its own `ran`
/// step, whose code names the computation: its shape id belongs to that computation
/// alone, so the counts are kept by shape id, in an array, with no second lookup.
struct RerunShapeCounter {
    /// Shape ids by (the shape before the last step, the last step's code).
    private var shapes = WordPairTable()
    /// Per shape id, how many reruns followed it (0 for shapes no rerun ended in).
    private(set) var counts: [Int] = []

    /// The id of the chain's shape: the same for two chains iff they have the same
    /// length and, step by step, the same ``CauseLink/stepCode``.
    mutating func shape(of link: CauseLink) -> Int32 {
        if link.profileShapeID >= 0 { return link.profileShapeID }
        let parent = link.unretainedNext.map { $0._withUnsafeGuaranteedRef { shape(of: $0) } } ?? -1
        let code = link.stepCode
        // Kinds are 1...6 (8 bits); details are a node position and a cause (at most
        // 40 bits) or a gap's length in steps, below 2^56 for any trace that fits a disk.
        let key = UInt64(bitPattern: code.kind) << 56 | (UInt64(bitPattern: code.detail) & (1 << 56 - 1))
        let parentWord = UInt32(bitPattern: parent)
        let id: Int32
        if let known = shapes.value(parentWord, key) {
            id = known
        } else {
            id = Int32(counts.count)
            counts.append(0)
            shapes.insert(parentWord, key, value: id)
        }
        link.profileShapeID = id
        return id
    }

    /// Counts one more rerun that followed `shape` (the shape of a chain ending in the
    /// rerun's `ran` step: one computation's); returns how many did.
    mutating func countRerun(following shape: Int32) -> Int {
        counts[Int(shape)] += 1
        return counts[Int(shape)]
    }
}
