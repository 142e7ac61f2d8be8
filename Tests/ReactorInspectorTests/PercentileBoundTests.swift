import Testing
@testable import ReactorInspector

/// docs/METRICS.md, "Percentiles": a percentile read from ``DurationHistogram`` is exact
/// below 16 ns and within 1/16 of the true sample above, the bound reached at a bucket's bottom.
@Suite struct PercentileBoundTests {
    /// The median of three samples, with extremes far enough out that clamping does not help.
    static func median(of value: UInt64) -> UInt64 {
        var histogram = DurationHistogram()
        for sample in [0, value, UInt64(1) << 62] { histogram.record(sample) }
        return histogram.percentile(0.5)
    }

    @Test func everyBucketEdgeIsWithinASixteenth() {
        var worst = 0.0
        var values: [UInt64] = Array(0..<64)
        for exponent in 3..<60 {
            for mantissa in UInt64(8)...15 {
                let width = UInt64(1) << UInt64(exponent - 3)
                let low = mantissa * width
                values += [low, low + width / 2, low + width - 1]
            }
        }
        for value in values {
            let read = Self.median(of: value)
            let error = read > value ? read - value : value - read
            if value < 16 {
                #expect(error == 0, "\(value)")
            } else {
                #expect(error * 16 < value, "\(value) read as \(read)")
                worst = max(worst, Double(error) / Double(value))
            }
        }
        // The bound is tight: the bottom of a wide bucket comes within a hair of it.
        #expect(worst > 0.0624 && worst <= 0.0625)   // strictly below in integers (checked above)
    }
}
