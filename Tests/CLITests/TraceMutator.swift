import ReactorTrace
import TraceForgery

/// Damages trace bytes the way docs/TRACE_FORMAT.md lays them out, then
/// fixes the checksums so that the damage reaches the decoder and the
/// importer behind them: bit flips, boundary bytes, insertions, deletions,
/// duplications, absurd varints, and absurd values in the block headers'
/// and the end block's fields (the sizes and counts a reader must not trust).
enum TraceMutator {
    /// `seed` with one to four mutations, resealed.
    static func mutant(of seed: [UInt8], using random: inout SeededGenerator) -> [UInt8] {
        var bytes = seed
        for _ in 0..<Int.random(in: 1...4, using: &random) { mutate(&bytes, using: &random) }
        TraceBytes.reseal(&bytes)
        return bytes
    }

    static func mutate(_ bytes: inout [UInt8], using random: inout SeededGenerator) {
        guard bytes.count > 1 else { bytes.append(UInt8.random(in: 0...255, using: &random)); return }
        let index = Int.random(in: 0..<bytes.count, using: &random)
        let blocks = TraceBytes.blockOffsets(bytes)
        switch Int.random(in: 0..<9, using: &random) {
        case 0: bytes[index] ^= 1 << UInt8.random(in: 0..<8, using: &random)
        case 1: bytes[index] = [0x00, 0xFF, 0x7F, 0x80, 0x01].randomElement(using: &random)!
        case 2: bytes.insert(contentsOf: (0..<Int.random(in: 1...8, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }, at: index)
        case 3: bytes.removeSubrange(index..<min(bytes.count, index + Int.random(in: 1...16, using: &random)))
        case 4:
            let end = min(bytes.count, index + Int.random(in: 1...64, using: &random))
            bytes.insert(contentsOf: bytes[index..<end], at: end)
        case 5:
            // The largest varints: 9 bytes of high bits and a last one (2⁶⁴ − 1 and friends).
            bytes.insert(contentsOf: [UInt8](repeating: 0xFF, count: 9) + [0x01], at: index)
        case 6, 7:
            // A chunk's thread, sequence or event count.
            guard let block = blocks.randomElement(using: &random) else { return }
            let field = [8, 12, 16].randomElement(using: &random)!
            let value: UInt32 = [.max, 1 << 28, UInt32(Int32.max), 1 << 16, UInt32.random(in: 0...UInt32.max, using: &random)]
                .randomElement(using: &random)!
            TraceBytes.setUInt32(&bytes, at: block + field, value)
        default:
            // An end block's (or any block's) 64-bit fields: events, chunks, duration, lost events.
            guard let block = blocks.last else { return }
            let length = Int(TraceBytes.uint32(bytes, at: block + 4))
            guard length >= 8, block + 28 + length <= bytes.count else { return }
            let offset = block + 28 + Int.random(in: 0...(length - 8), using: &random)
            let value: UInt64 = [.max, 1 << 63, UInt64(Int64.max), UInt64.random(in: 0...UInt64.max, using: &random)]
                .randomElement(using: &random)!
            for byte in 0..<8 { bytes[offset + byte] = UInt8(truncatingIfNeeded: value >> (8 * byte)) }
        }
    }
}
