/// ``ByteReader``'s contract (every `read…` returns nil on short input and
/// then leaves the cursor alone) over a borrowed buffer, for the decoder's inner
/// loop: no array bounds checks beyond its own, no reference counting. Valid
/// only inside the `withUnsafeBufferPointer` that produced the buffer.
struct UnsafeByteReader {
    private let buffer: UnsafeBufferPointer<UInt8>
    private(set) var readerIndex = 0

    init(_ buffer: UnsafeBufferPointer<UInt8>) { self.buffer = buffer }

    var readableBytes: Int { buffer.count - readerIndex }

    @inline(__always)
    mutating func readByte() -> UInt8? {
        guard readerIndex < buffer.count else { return nil }
        defer { readerIndex += 1 }
        return buffer[readerIndex]
    }

    /// An unsigned LEB128 varint of at most 10 bytes (see ``ByteReader/readVarint()``).
    @inline(__always)
    mutating func readVarint() -> UInt64? {
        guard readerIndex < buffer.count else { return nil }
        let first = buffer[readerIndex]
        if first < 0x80 {
            readerIndex += 1
            return UInt64(first)
        }
        return readLongVarint()
    }

    private mutating func readLongVarint() -> UInt64? {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        var index = readerIndex
        while index < buffer.count, shift < 70 {
            let byte = buffer[index]
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

    mutating func skip(_ count: Int) -> Bool {
        guard count >= 0, readableBytes >= count else { return false }
        readerIndex += count
        return true
    }

    /// The next `count` bytes as a reader of their own (this one moves past them).
    mutating func slice(_ count: Int) -> UnsafeByteReader? {
        guard count >= 0, readableBytes >= count else { return nil }
        defer { readerIndex += count }
        return UnsafeByteReader(UnsafeBufferPointer(rebasing: buffer[readerIndex..<readerIndex + count]))
    }

    /// `count` bytes as UTF-8 (invalid sequences become U+FFFD).
    mutating func readString(_ count: Int) -> String? {
        guard count >= 0, readableBytes >= count else { return nil }
        defer { readerIndex += count }
        return String(decoding: UnsafeBufferPointer(rebasing: buffer[readerIndex..<readerIndex + count]), as: UTF8.self)
    }
}
