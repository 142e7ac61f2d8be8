/// Durations and trace times as people read and type them: `850 ns`,
/// `12.3 µs`, `4.56 ms`, `1.20 s`.
public enum DurationText {
    /// `nanoseconds` with a unit chosen to keep three significant digits.
    public static func format(_ nanoseconds: UInt64) -> String {
        let value = Double(nanoseconds)
        switch nanoseconds {
        case ..<1_000: return "\(nanoseconds) ns"
        case ..<1_000_000: return fixed(value / 1_000) + " µs"
        case ..<1_000_000_000: return fixed(value / 1_000_000) + " ms"
        default: return fixed(value / 1_000_000_000) + " s"
        }
    }

    /// A trace time in milliseconds with microsecond precision (`12.345 ms`),
    /// the form `replay` prints and `--from`/`--to`/`--at` accept.
    public static func formatTime(_ nanoseconds: UInt64) -> String {
        let micros = nanoseconds / 1_000
        let whole = micros / 1_000
        let fraction = micros % 1_000
        return "\(whole).\(pad(fraction, 3)) ms"
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

    private static func fixed(_ value: Double) -> String {
        // Three significant digits without Foundation's formatters.
        let decimals = value < 10 ? 2 : value < 100 ? 1 : 0
        var scaled = value
        for _ in 0..<decimals { scaled *= 10 }
        let rounded = UInt64(scaled.rounded())
        if decimals == 0 { return "\(rounded)" }
        var divisor: UInt64 = 1
        for _ in 0..<decimals { divisor *= 10 }
        return "\(rounded / divisor).\(pad(rounded % divisor, decimals))"
    }

    private static func pad(_ value: UInt64, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
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
