/// Durations and trace times as people read and type them: `850 ns`,
/// `12.3 µs`, `4.56 ms`, `1.20 s`.
package enum DurationText {
    /// `nanoseconds` with a unit chosen to keep three significant digits.
    public static func format(_ nanoseconds: UInt64) -> String {
        let text = ByteText(capacity: 16)
        appendFormat(nanoseconds, to: text)
        return text.string
    }

    /// ``format(_:)`` appended to a byte buffer (`replay`'s hot path).
    static func appendFormat(_ nanoseconds: UInt64, to bytes: ByteText) {
        let value = Double(nanoseconds)
        switch nanoseconds {
        case ..<1_000:
            bytes.appendDecimal(nanoseconds)
            bytes.append(" ns")
        case ..<1_000_000:
            appendFixed(value / 1_000, to: bytes)
            bytes.append(" µs")
        case ..<1_000_000_000:
            appendFixed(value / 1_000_000, to: bytes)
            bytes.append(" ms")
        default:
            appendFixed(value / 1_000_000_000, to: bytes)
            bytes.append(" s")
        }
    }

    /// A trace time in milliseconds with microsecond precision (`12.345 ms`),
    /// the form `replay` prints and `--from`/`--to`/`--at` accept.
    public static func formatTime(_ nanoseconds: UInt64) -> String {
        let text = ByteText(capacity: 16)
        appendTime(nanoseconds, to: text)
        return text.string
    }

    /// ``formatTime(_:)`` appended to a byte buffer.
    static func appendTime(_ nanoseconds: UInt64, to bytes: ByteText) {
        let micros = nanoseconds / 1_000
        bytes.appendDecimal(micros / 1_000)
        bytes.append(0x2E)   // "."
        bytes.appendThreeDigits(micros % 1_000)
        bytes.append(" ms")
    }

    /// Characters ``formatTime(_:)`` writes for `nanoseconds` (all ASCII), for padding.
    static func timeWidth(_ nanoseconds: UInt64) -> Int {
        var whole = nanoseconds / 1_000_000, digits = 1
        while whole >= 10 {
            whole /= 10
            digits += 1
        }
        return digits + 7   // ".123 ms"
    }

    /// Parses `1.5ms`, `250us`/`250µs`, `42ns`, `2s` or a plain number of
    /// milliseconds; nil if it is not a duration.
    public static func parse(_ text: String) -> UInt64? {
        let trimmed = text.trimmingWhitespace().lowercased()
        let units: [(String, Double)] = [("ns", 1), ("us", 1_000), ("µs", 1_000), ("ms", 1_000_000), ("s", 1_000_000_000)]
        var number = trimmed
        var scale = 1_000_000.0
        for (suffix, factor) in units where trimmed.hasSuffix(suffix) {
            number = String(trimmed.dropLast(suffix.count)).trimmingWhitespace()
            scale = factor
            break
        }
        guard let value = Double(number), value.isFinite, value >= 0 else { return nil }
        let nanoseconds = value * scale
        guard nanoseconds < Double(UInt64.max) else { return nil }
        return UInt64(nanoseconds.rounded())
    }

    /// Three significant digits without Foundation's formatters.
    private static func appendFixed(_ value: Double, to bytes: ByteText) {
        let decimals = value < 10 ? 2 : value < 100 ? 1 : 0
        var scaled = value
        for _ in 0..<decimals { scaled *= 10 }
        let rounded = UInt64(scaled.rounded())
        if decimals == 0 {
            bytes.appendDecimal(rounded)
            return
        }
        var divisor: UInt64 = 1
        for _ in 0..<decimals { divisor *= 10 }
        bytes.appendDecimal(rounded / divisor)
        bytes.append(0x2E)   // "."
        bytes.appendDecimal(rounded % divisor, width: decimals)
    }
}

extension String {
    func trimmingWhitespace() -> String {
        var scalars = Substring(self)
        while let first = scalars.first, first.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.isWhitespace { scalars.removeLast() }
        return String(scalars)
    }
}
