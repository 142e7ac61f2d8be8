import ReactorTrace

/// A seeded generator (SplitMix64): the same seed gives the same mutants on every machine.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

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
        reseal(&bytes)
        return bytes
    }

    static func mutate(_ bytes: inout [UInt8], using random: inout SeededGenerator) {
        guard bytes.count > 1 else { bytes.append(UInt8.random(in: 0...255, using: &random)); return }
        let index = Int.random(in: 0..<bytes.count, using: &random)
        let blocks = blockOffsets(bytes)
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
            setUInt32(&bytes, at: block + field, value)
        default:
            // An end block's (or any block's) 64-bit fields: events, chunks, duration, lost events.
            guard let block = blocks.last else { return }
            let length = Int(uint32(bytes, at: block + 4))
            guard length >= 8, block + 28 + length <= bytes.count else { return }
            let offset = block + 28 + Int.random(in: 0...(length - 8), using: &random)
            let value: UInt64 = [.max, 1 << 63, UInt64(Int64.max), UInt64.random(in: 0...UInt64.max, using: &random)]
                .randomElement(using: &random)!
            for byte in 0..<8 { bytes[offset + byte] = UInt8(truncatingIfNeeded: value >> (8 * byte)) }
        }
    }

    static func uint32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        (0..<4).reduce(0) { $0 | UInt32(bytes[offset + $1]) << (8 * $1) }
    }

    static func setUInt32(_ bytes: inout [UInt8], at offset: Int, _ value: UInt32) {
        for index in 0..<4 { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * index)) }
    }

    /// The offsets of the blocks after the header, following the length fields
    /// as far as they stay inside the bytes.
    static func blockOffsets(_ bytes: [UInt8]) -> [Int] {
        guard bytes.count >= 16 else { return [] }
        var offset = Int(uint32(bytes, at: 12))
        var offsets: [Int] = []
        while offset + TraceFormat.blockHeaderLength <= bytes.count {
            offsets.append(offset)
            offset += TraceFormat.blockHeaderLength + Int(uint32(bytes, at: offset + 4))
        }
        return offsets
    }

    /// Recomputes the header's and every whole block's checksum.
    static func reseal(_ bytes: inout [UInt8]) {
        if bytes.count >= 16 {
            let length = Int(uint32(bytes, at: 12))
            if length >= 4, length <= bytes.count {
                setUInt32(&bytes, at: length - 4, CRC32.checksum(Array(bytes[0..<length - 4])))
            }
        }
        for offset in blockOffsets(bytes) {
            let end = offset + TraceFormat.blockHeaderLength + Int(uint32(bytes, at: offset + 4))
            guard end <= bytes.count else { break }
            setUInt32(&bytes, at: offset + 24, CRC32.checksum(Array(bytes[offset..<offset + 24] + bytes[offset + 28..<end])))
        }
    }
}

/// Writes trace bytes by hand (docs/TRACE_FORMAT.md), for the fuzz harness's
/// regression inputs: values a recorder never writes, with valid checksums.
struct TraceForge {
    private(set) var bytes: [UInt8]

    /// A version 1.1 header.
    init() {
        var header = TraceFormat.magic
        Self.append(&header, UInt16(1))
        Self.append(&header, UInt16(1))
        Self.append(&header, UInt32(44))
        header += [1, 0, 0, 0]
        Self.append(&header, UInt64(1_700_000_000_000_000_000))
        Self.append(&header, UInt64(0))
        Self.append(&header, UInt32(42))
        Self.append(&header, CRC32.checksum(header))
        bytes = header
    }

    /// A chunk of `events` (each an encoded event: see the helpers below), a fresh context unless `continuing`.
    mutating func chunk(thread: UInt32, sequence: UInt32 = 0, continuing: Bool = false, _ events: [[UInt8]]) {
        block(type: TraceFormat.chunkBlock, thread: thread, sequence: sequence, count: UInt32(events.count),
              flags: continuing ? 0 : TraceFormat.freshContextFlag, payload: events.flatMap { $0 })
    }

    /// The end block (format 1.1: with the lost-events count and the termination).
    mutating func end(events: UInt64, chunks: UInt64, durationNanoseconds: UInt64, threads: UInt32,
                      lostEvents: UInt64 = 0) {
        var payload: [UInt8] = []
        Self.append(&payload, events)
        Self.append(&payload, chunks)
        Self.append(&payload, durationNanoseconds)
        Self.append(&payload, threads)
        Self.append(&payload, lostEvents)
        Self.append(&payload, UInt32(0))
        block(type: TraceFormat.endBlock, thread: 0, sequence: 0, count: 0, flags: 0, payload: payload)
    }

    private mutating func block(type: UInt32, thread: UInt32, sequence: UInt32, count: UInt32, flags: UInt8, payload: [UInt8]) {
        var header: [UInt8] = []
        Self.append(&header, type)
        Self.append(&header, UInt32(payload.count))
        Self.append(&header, thread)
        Self.append(&header, sequence)
        Self.append(&header, count)
        header += [flags, 0, 0, 0]
        Self.append(&header, CRC32.checksum(header + payload))
        bytes += header + payload
    }

    private static func append<Value: FixedWidthInteger>(_ bytes: inout [UInt8], _ value: Value) {
        withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
    }

    static func varint(_ value: UInt64) -> [UInt8] {
        var value = value, out: [UInt8] = []
        while value >= 0x80 {
            out.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        return out + [UInt8(value)]
    }

    /// The zigzag code of the step from register value `from` to `to`.
    static func delta(_ to: UInt64, from: UInt64) -> [UInt8] {
        let difference = Int64(bitPattern: to &- from)
        return varint(UInt64(bitPattern: (difference << 1) ^ (difference >> 63)))
    }

    /// `nodeCreated` of a computation named `name` (a new string-table entry), the N register going `from` → `id`.
    static func created(_ id: UInt64, kind: UInt8 = 1, name: String, from: UInt64 = 0, time: UInt64) -> [UInt8] {
        [1, kind] + delta(id, from: from) + [0] + varint(UInt64(name.utf8.count)) + Array(name.utf8) + [0] + varint(time)
    }

    static func flushBegan(time: UInt64) -> [UInt8] { [11] + varint(time) }
    static func flushEnded(time: UInt64) -> [UInt8] { [12] + varint(time) }
}
