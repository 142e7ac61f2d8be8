/// A cursor over bytes in the shape of NIO's `ByteBuffer`: every `read…`
/// returns nil on short or malformed input and leaves the cursor where it was,
/// so a decoder built on it cannot trap on any byte sequence.
package struct ByteReader: Sendable {
    /// The bytes being read.
    public let bytes: [UInt8]
    /// The index of the next byte to read.
    public private(set) var readerIndex: Int

    /// A reader at the start of `bytes`.
    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
        readerIndex = 0
    }

    /// How many bytes are left to read.
    public var readableBytes: Int { bytes.count - readerIndex }

    /// Reads one byte.
    public mutating func readByte() -> UInt8? {
        guard readerIndex < bytes.count else { return nil }
        defer { readerIndex += 1 }
        return bytes[readerIndex]
    }

    /// Reads a little-endian fixed-width integer.
    public mutating func readInteger<T: FixedWidthInteger & UnsignedInteger>(as type: T.Type = T.self) -> T? {
        let size = MemoryLayout<T>.size
        guard readableBytes >= size else { return nil }
        var value: T = 0
        for offset in 0..<size {
            value |= T(bytes[readerIndex + offset]) << (8 * offset)
        }
        readerIndex += size
        return value
    }

    /// Reads an unsigned LEB128 varint of at most 10 bytes; nil if it is cut
    /// short or longer than 10 bytes. Bits beyond 64 are discarded.
    public mutating func readVarint() -> UInt64? {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        var index = readerIndex
        while index < bytes.count, shift < 70 {
            let byte = bytes[index]
            index += 1
            value |= UInt64(byte & 0x7F) &<< shift
            if byte & 0x80 == 0 {
                readerIndex = index
                return value
            }
            shift += 7
        }
        return nil
    }

    /// Reads `count` bytes.
    public mutating func readBytes(_ count: Int) -> ArraySlice<UInt8>? {
        guard count >= 0, readableBytes >= count else { return nil }
        defer { readerIndex += count }
        return bytes[readerIndex..<readerIndex + count]
    }

    /// Skips `count` bytes; false (and no move) if fewer are left.
    public mutating func skip(_ count: Int) -> Bool {
        guard count >= 0, readableBytes >= count else { return false }
        readerIndex += count
        return true
    }

    /// Reads `count` bytes as UTF-8 (invalid sequences become U+FFFD).
    public mutating func readString(_ count: Int) -> String? {
        guard let slice = readBytes(count) else { return nil }
        return String(decoding: slice, as: UTF8.self)
    }
}
