import ReactorTraceFormat

/// Builds and patches trace bytes by hand, the way docs/TRACE_FORMAT.md lays them out
/// (shared by the format tests and the CLI's fuzz harness).
public enum TraceBytes {
    /// A block: type, payload length, thread, sequence, event count, flags, CRC32, payload.
    public static func block(type: UInt32, thread: UInt32 = 0, sequence: UInt32 = 0, events: UInt32 = 0,
                      flags: UInt8 = 0, payload: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.appendLittleEndian(type)
        bytes.appendLittleEndian(UInt32(payload.count))
        bytes.appendLittleEndian(thread)
        bytes.appendLittleEndian(sequence)
        bytes.appendLittleEndian(events)
        bytes.append(contentsOf: [flags, 0, 0, 0])
        var crc = CRC32()
        bytes.withUnsafeBytes { crc.update($0) }
        payload.withUnsafeBytes { crc.update($0) }
        bytes.appendLittleEndian(crc.value)
        return bytes + payload
    }

    public static func uint32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        (0..<4).reduce(0) { $0 | UInt32(bytes[offset + $1]) << (8 * $1) }
    }

    public static func setUInt32(_ bytes: inout [UInt8], at offset: Int, _ value: UInt32) {
        for index in 0..<4 { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * index)) }
    }

    /// The offsets of the blocks after the header, following the length fields
    /// as far as they stay inside the bytes.
    public static func blockOffsets(_ bytes: [UInt8]) -> [Int] {
        guard bytes.count >= 16 else { return [] }
        var offset = Int(uint32(bytes, at: 12))
        var offsets: [Int] = []
        while offset >= 0, offset + TraceFormat.blockHeaderLength <= bytes.count {
            offsets.append(offset)
            let length = Int(uint32(bytes, at: offset + 4))
            offset += TraceFormat.blockHeaderLength + length
        }
        return offsets
    }

    /// The offsets of the event chunks among ``blockOffsets(_:)`` (leaving out the metadata and history blocks).
    public static func chunkOffsets(_ bytes: [UInt8]) -> [Int] {
        blockOffsets(bytes).filter { uint32(bytes, at: $0) == TraceFormat.chunkBlock }
    }

    /// Recomputes the header's and every block's checksum, so that a mutation
    /// reaches the decoders behind the checksums.
    public static func reseal(_ bytes: inout [UInt8]) {
        if bytes.count >= 16 {
            let length = Int(uint32(bytes, at: 12))
            if length >= 4, length <= bytes.count {
                setUInt32(&bytes, at: length - 4, CRC32.checksum(Array(bytes[0..<length - 4])))
            }
        }
        for offset in blockOffsets(bytes) {
            let length = Int(uint32(bytes, at: offset + 4))
            let end = offset + TraceFormat.blockHeaderLength + length
            guard end <= bytes.count else { break }
            var crc = CRC32()
            Array(bytes[offset..<offset + 24]).withUnsafeBytes { crc.update($0) }
            Array(bytes[offset + 28..<end]).withUnsafeBytes { crc.update($0) }
            setUInt32(&bytes, at: offset + 24, crc.value)
        }
    }
}
