/// A hash table from a pair (a 32-bit word, a 64-bit word other than `UInt64.max`) to a
/// non-negative `Int32`, for the lookups ``ExplanationsCollector`` and ``RerunShapeCounter``
/// make for every run they count: open addressing with linear probing, a multiply-xorshift hash, and each
/// bucket's key and value in one 16-byte slot, so that a lookup in a table far larger
/// than the cache costs one miss (a `Dictionary` hashes with SipHash and probes
/// through its generic storage: most of a first `why`'s time, by perf). Pairs are
/// only added, never removed.
struct WordPairTable {
    /// Two words per bucket: the pair's second word (`UInt64.max`: empty), then its first
    /// word in the low half and the value in the high half.
    private var buckets: [UInt64]
    private var mask: Int
    /// How many pairs it holds.
    private(set) var count = 0

    init() {
        buckets = Array(repeating: .max, count: 2 * 64)
        mask = 63
    }

    @inline(__always)
    private static func bucket(_ first: UInt32, _ second: UInt64, mask: Int) -> Int {
        var hash = (UInt64(first) &* 0x9E37_79B9_7F4A_7C15) ^ second
        hash = (hash ^ (hash >> 31)) &* 0xBF58_476D_1CE4_E5B9
        hash ^= hash >> 29
        return Int(truncatingIfNeeded: hash) & mask
    }

    /// The value of the pair, or nil.
    @inline(__always)
    func value(_ first: UInt32, _ second: UInt64) -> Int32? {
        var bucket = Self.bucket(first, second, mask: mask)
        while true {
            let key = buckets[2 &* bucket]
            if key == .max { return nil }
            let rest = buckets[2 &* bucket &+ 1]
            if key == second && UInt32(truncatingIfNeeded: rest) == first { return Int32(truncatingIfNeeded: rest >> 32) }
            bucket = (bucket &+ 1) & mask
        }
    }

    /// Adds a pair the table does not hold yet.
    mutating func insert(_ first: UInt32, _ second: UInt64, value: Int32) {
        precondition(value >= 0 && second != .max)
        // At most 70% full, so that probes stay short.
        if 10 * (count + 1) > 7 * (mask + 1) { grow() }
        place(second, UInt64(first) | UInt64(UInt32(value)) << 32)
        count += 1
    }

    private mutating func place(_ key: UInt64, _ rest: UInt64) {
        var bucket = Self.bucket(UInt32(truncatingIfNeeded: rest), key, mask: mask)
        while buckets[2 * bucket] != .max { bucket = (bucket &+ 1) & mask }
        buckets[2 * bucket] = key
        buckets[2 * bucket + 1] = rest
    }

    /// Doubles the buckets.
    private mutating func grow() {
        let old = buckets
        buckets = Array(repeating: .max, count: 2 * old.count)
        mask = old.count - 1
        for bucket in stride(from: 0, to: old.count, by: 2) where old[bucket] != .max {
            place(old[bucket], old[bucket + 1])
        }
    }
}
