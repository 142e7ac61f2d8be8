/// The last `limit` lines handed to it, in order: a ring of copies, so that memory is
/// bounded by `limit` lines however many are handed in (`replay --last`).
struct LastLines {
    let limit: Int
    private var ring: [[UInt8]] = []
    /// Where the next line goes once the ring is full (its oldest line).
    private var next = 0

    init(limit: Int) {
        self.limit = limit
    }

    /// Keeps a copy of `line`, dropping the oldest when `limit` are kept.
    mutating func keep(_ line: UnsafeBufferPointer<UInt8>) {
        guard limit > 0 else { return }
        if ring.count < limit { ring.append(Array(line)) } else { ring[next] = Array(line) }
        next = (next + 1) % limit
    }

    /// The lines kept, oldest first.
    var lines: [[UInt8]] {
        ring.count < limit ? ring : Array(ring[next...] + ring[..<next])
    }
}
