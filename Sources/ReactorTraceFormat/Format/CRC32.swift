import CReactorTraceCRC

/// CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320, initial value and final
/// XOR 0xFFFFFFFF: the checksum of zlib, PNG and gzip): folding with carry-less
/// multiplication where the CPU has it (CReactorTraceCRC), else slicing by 8 bytes.
package struct CRC32: Sendable {
    /// The running checksum state (not yet finalised).
    private var state: UInt32 = 0xFFFF_FFFF

    /// A checksum of nothing yet.
    public init() {}

    /// The checksum of `bytes`.
    public static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        var crc = CRC32()
        crc.update(bytes)
        return crc.value
    }

    /// The checksum of `bytes`.
    public static func checksum(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBytes { checksum($0) }
    }

    /// The checksum of everything passed to ``update(_:)`` so far.
    public var value: UInt32 { state ^ 0xFFFF_FFFF }

    /// Adds `bytes` to the checksum.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard var base = bytes.baseAddress else { return }
        var count = bytes.count
        // Carry-less multiplication over the whole 16-byte blocks, when the CPU has it.
        if count >= 64, crc32FoldAvailable {
            let folded = count & ~15
            state = reactor_trace_crc32_fold(state, base.assumingMemoryBound(to: UInt8.self), folded)
            base += folded
            count -= folded
        }
        updateWithTables(UnsafeRawBufferPointer(start: base, count: count))
    }

    /// Adds `bytes` to the checksum with slicing-by-8 tables (any length, any CPU).
    mutating func updateWithTables(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress else { return }
        // Through a buffer pointer: no bounds check on the eight table reads of
        // every 8 bytes (the writer thread checksums every chunk it ships).
        state = crc32Tables.withUnsafeBufferPointer { table in
            var crc = state
            var index = 0
            let count = bytes.count
            while index &+ 8 <= count {
                let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                let low = crc ^ UInt32(truncatingIfNeeded: word)
                let high = UInt32(truncatingIfNeeded: word &>> 32)
                crc = table[7 &* 256 &+ Int(low & 0xFF)] ^ table[6 &* 256 &+ Int((low &>> 8) & 0xFF)]
                    ^ table[5 &* 256 &+ Int((low &>> 16) & 0xFF)] ^ table[4 &* 256 &+ Int(low &>> 24)]
                    ^ table[3 &* 256 &+ Int(high & 0xFF)] ^ table[2 &* 256 &+ Int((high &>> 8) & 0xFF)]
                    ^ table[1 &* 256 &+ Int((high &>> 16) & 0xFF)] ^ table[Int(high &>> 24)]
                index &+= 8
            }
            while index < count {
                let byte = base.load(fromByteOffset: index, as: UInt8.self)
                crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc &>> 8)
                index &+= 1
            }
            return crc
        }
    }
}

extension UInt32 {
    /// Reads four little-endian bytes at `pointer` (any alignment).
    @inline(__always)
    init(littleEndianBytes pointer: UnsafeRawPointer) {
        self = UInt32(pointer.load(as: UInt8.self))
            | UInt32(pointer.load(fromByteOffset: 1, as: UInt8.self)) << 8
            | UInt32(pointer.load(fromByteOffset: 2, as: UInt8.self)) << 16
            | UInt32(pointer.load(fromByteOffset: 3, as: UInt8.self)) << 24
    }
}

/// Whether ``CRC32/update(_:)`` may use `reactor_trace_crc32_fold` (x86-64 with PCLMULQDQ and SSE4.1).
private let crc32FoldAvailable = reactor_trace_crc32_fold_available() != 0

/// Eight 256-entry tables: table k gives the CRC of a byte followed by k zero bytes.
private let crc32Tables: [UInt32] = {
    var tables = [UInt32](repeating: 0, count: 8 * 256)
    for byte in 0..<256 {
        var crc = UInt32(byte)
        for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        tables[byte] = crc
    }
    for byte in 0..<256 {
        var crc = tables[byte]
        for slice in 1..<8 {
            crc = tables[Int(crc & 0xFF)] ^ (crc >> 8)
            tables[slice * 256 + byte] = crc
        }
    }
    return tables
}()
