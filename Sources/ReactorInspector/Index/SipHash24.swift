/// SipHash-2-4 (Aumasson and Bernstein): a keyed 64-bit hash, here the tag that
/// says an index was written by this user's reader (``IndexKey``): a CRC can be
/// recomputed by anyone who edits the file, this tag only with the key.
struct SipHash24 {
    let key: (UInt64, UInt64)

    func tag(_ bytes: [UInt8]) -> UInt64 {
        var v0: UInt64 = 0x736f_6d65_7073_6575 ^ key.0
        var v1: UInt64 = 0x646f_7261_6e64_6f6d ^ key.1
        var v2: UInt64 = 0x6c79_6765_6e65_7261 ^ key.0
        var v3: UInt64 = 0x7465_6462_7974_6573 ^ key.1
        func round() {
            v0 &+= v1; v1 = v1.rotatedLeft(13); v1 ^= v0; v0 = v0.rotatedLeft(32)
            v2 &+= v3; v3 = v3.rotatedLeft(16); v3 ^= v2
            v0 &+= v3; v3 = v3.rotatedLeft(21); v3 ^= v0
            v2 &+= v1; v1 = v1.rotatedLeft(17); v1 ^= v2; v2 = v2.rotatedLeft(32)
        }
        func absorb(_ word: UInt64) {
            v3 ^= word
            round(); round()
            v0 ^= word
        }
        let whole = bytes.count / 8 * 8
        var position = 0
        while position < whole {
            var word: UInt64 = 0
            for offset in 0..<8 { word |= UInt64(bytes[position + offset]) << UInt64(8 * offset) }
            absorb(word)
            position += 8
        }
        var last = UInt64(truncatingIfNeeded: bytes.count) << 56
        for offset in 0..<(bytes.count - whole) { last |= UInt64(bytes[whole + offset]) << UInt64(8 * offset) }
        absorb(last)
        v2 ^= 0xff
        round(); round(); round(); round()
        return v0 ^ v1 ^ v2 ^ v3
    }
}

extension UInt64 {
    fileprivate func rotatedLeft(_ count: UInt64) -> UInt64 { (self << count) | (self >> (64 - count)) }
}
