import Foundation

/// A buffered byte sink: appends go to a 64 KiB buffer that is handed to
/// `write` when full and at ``flush()``, so exporters stream with one
/// system call per buffer whatever the number of events.
public final class ByteOutput {
    private var buffer: [UInt8] = []
    private let capacity: Int
    private let write: ([UInt8]) throws -> Void

    /// Writes to `write` in chunks of about `capacity` bytes.
    public init(capacity: Int = 1 << 16, write: @escaping ([UInt8]) throws -> Void) {
        self.capacity = capacity
        self.write = write
        buffer.reserveCapacity(capacity + 1024)
    }

    /// Appends UTF-8 text.
    public func append(_ text: String) throws {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= capacity { try flush() }
    }

    /// Appends a compile-time string without creating a `String`.
    public func appendStatic(_ text: StaticString) throws {
        text.withUTF8Buffer { buffer.append(contentsOf: $0) }
        if buffer.count >= capacity { try flush() }
    }

    /// Appends `text` as the body of a JSON string literal (without quotes).
    public func appendJSONEscaped(_ text: String) {
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): buffer.append(contentsOf: [92, 34])
            case UInt8(ascii: "\\"): buffer.append(contentsOf: [92, 92])
            case 0x0A: buffer.append(contentsOf: [92, UInt8(ascii: "n")])
            case 0x0D: buffer.append(contentsOf: [92, UInt8(ascii: "r")])
            case 0x09: buffer.append(contentsOf: [92, UInt8(ascii: "t")])
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                buffer.append(contentsOf: [92, UInt8(ascii: "u"), 48, 48, hex[Int(byte >> 4)], hex[Int(byte & 15)]])
            default: buffer.append(byte)
            }
        }
    }

    /// Appends a non-negative integer in decimal, without allocating.
    public func appendDecimal(_ value: UInt64) {
        if value < 10 { buffer.append(48 + UInt8(value)); return }
        let start = buffer.count
        var rest = value
        while rest > 0 {
            buffer.append(48 + UInt8(rest % 10))
            rest /= 10
        }
        buffer[start...].reverse()
    }

    /// Appends nanoseconds as microseconds with three decimals (`1234.567`), exactly.
    public func appendMicroseconds(_ nanoseconds: UInt64) {
        appendDecimal(nanoseconds / 1000)
        let fraction = nanoseconds % 1000
        buffer.append(UInt8(ascii: "."))
        buffer.append(48 + UInt8(fraction / 100))
        buffer.append(48 + UInt8(fraction / 10 % 10))
        buffer.append(48 + UInt8(fraction % 10))
    }

    /// Hands everything buffered to the sink.
    public func flush() throws {
        guard !buffer.isEmpty else { return }
        try write(buffer)
        buffer.removeAll(keepingCapacity: true)
    }
}
