/// A growable UTF-8 byte buffer for text written a line per event (`replay`
/// prints tens of millions): plain stores into memory it owns, where
/// `String` interpolation or `Array.append(contentsOf:)` cost hundreds of
/// instructions a piece. Reused line after line; one thread at a time.
///
/// Internal storage used from one thread at a time: its fields, touched a
/// few times per byte written, opt out of dynamic exclusivity checks.
final class ByteText {
    /// Whether ``open(_:)`` and ``close()`` write ANSI escapes.
    @exclusivity(unchecked) var colors = false
    @exclusivity(unchecked) private(set) var base: UnsafeMutablePointer<UInt8>
    /// Bytes written.
    @exclusivity(unchecked) private(set) var count = 0
    @exclusivity(unchecked) private var capacity: Int

    init(capacity: Int = 256) {
        self.capacity = max(16, capacity)
        base = .allocate(capacity: self.capacity)
    }

    deinit {
        base.deallocate()
    }

    /// The bytes written so far.
    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

    /// Forgets the bytes, keeping the memory.
    @inline(__always)
    func clear() { count = 0 }

    @inline(__always)
    private func reserve(_ extra: Int) {
        if count + extra > capacity { grow(count + extra) }
    }

    private func grow(_ needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.update(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    /// Appends one byte.
    @inline(__always)
    func append(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    /// Appends `bytes`.
    @inline(__always)
    func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(bytes.count)
        (base + count).update(from: source, count: bytes.count)
        count += bytes.count
    }

    /// Appends the bytes of `array`.
    @inline(__always)
    func append(_ array: [UInt8]) {
        array.withUnsafeBufferPointer { append($0) }
    }

    /// Appends the UTF-8 of `text`.
    @inline(__always)
    func append(_ text: String) {
        var text = text
        text.withUTF8 { append($0) }
    }

    /// Appends the UTF-8 of a literal.
    @inline(__always)
    func append(_ text: StaticString) {
        text.withUTF8Buffer { append($0) }
    }

    /// Appends `count` spaces.
    @inline(__always)
    func appendSpaces(_ spaces: Int) {
        guard spaces > 0 else { return }
        // Eight at a time (a few per line: a call to memset costs more): the
        // last word may run past the spaces, into room reserved for it.
        reserve(spaces + 7)
        let raw = UnsafeMutableRawPointer(base + count)
        var offset = 0
        while offset < spaces {
            raw.storeBytes(of: 0x2020_2020_2020_2020 as UInt64, toByteOffset: offset, as: UInt64.self)
            offset += 8
        }
        count += spaces
    }

    /// Appends `value` (below 1,000) as exactly three digits: `007`.
    @inline(__always)
    func appendThreeDigits(_ value: UInt64) {
        reserve(3)
        let small = UInt16(truncatingIfNeeded: value)
        base[count] = UInt8(truncatingIfNeeded: small / 100 % 10) &+ 0x30
        base[count + 1] = UInt8(truncatingIfNeeded: small / 10 % 10) &+ 0x30
        base[count + 2] = UInt8(truncatingIfNeeded: small % 10) &+ 0x30
        count += 3
    }

    /// Appends the decimal digits of `value`, zero-padded to at least `width` (at most 20).
    func appendDecimal(_ value: UInt64, width: Int = 0) {
        if value < 10 && width <= 1 {
            append(UInt8(truncatingIfNeeded: value) &+ 0x30)
            return
        }
        var digits = 1, rest = value
        while rest >= 100 {
            rest /= 100
            digits += 2
        }
        if rest >= 10 { digits += 1 }
        let total = max(digits, min(width, 20))
        reserve(total)
        // Two digits a division.
        var remaining = value, index = count + total
        while remaining >= 10 {
            let pair = UInt8(truncatingIfNeeded: remaining % 100)
            remaining /= 100
            index -= 2
            base[index] = pair / 10 &+ 0x30
            base[index + 1] = pair % 10 &+ 0x30
        }
        if index > count + total - digits {
            index -= 1
            base[index] = UInt8(truncatingIfNeeded: remaining) &+ 0x30
        }
        while index > count {
            index -= 1
            base[index] = 0x30
        }
        count += total
    }

    /// Appends bytes `range` of `other`.
    @inline(__always)
    func append(_ range: Range<Int>, of other: ByteText) {
        append(UnsafeBufferPointer(start: other.base + range.lowerBound, count: range.count))
    }

    /// Starts ANSI style `code` ("1" bold, "2" dim, "31" red…) when colouring.
    @inline(__always)
    func open(_ code: StaticString) {
        guard colors else { return }
        append(0x1B)
        append(0x5B)   // "["
        append(code)
        append(0x6D)   // "m"
    }

    /// Ends the style when colouring.
    @inline(__always)
    func close() {
        guard colors else { return }
        append("\u{1B}[0m" as StaticString)
    }

    /// The bytes as a `String`.
    var string: String { String(decoding: bytes, as: UTF8.self) }
}
