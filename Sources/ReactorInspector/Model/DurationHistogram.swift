/// A fixed-precision histogram of durations in nanoseconds, for percentiles
/// whose memory does not grow with the number of samples.
///
/// Buckets are log-linear: exact below 8 ns, then 8 buckets per power of two,
/// so a percentile is within 1/16 (about 6 %) of the true sample, and it is
/// always clamped to the exact minimum and maximum. At most 496 counters exist
/// per histogram, and only up to the largest bucket used.
public struct DurationHistogram: Sendable, Equatable {
    /// Counts per bucket, grown up to the largest bucket used.
    private(set) var counts: [UInt32] = []
    /// How many samples were recorded.
    public private(set) var count: Int = 0
    /// The sum of all samples.
    public private(set) var sum: UInt64 = 0
    /// The smallest sample, or 0 when empty.
    public private(set) var minimum: UInt64 = 0
    /// The largest sample, or 0 when empty.
    public private(set) var maximum: UInt64 = 0

    /// An empty histogram.
    public init() {}

    /// A histogram as ``counts`` and its figures say, or nil when they disagree
    /// (the counts do not sum to `count`, a bucket past the largest duration,
    /// a minimum above the maximum): for an index read back.
    init?(counts: [UInt32], count: Int, sum: UInt64, minimum: UInt64, maximum: UInt64) {
        guard counts.count <= Self.bucket(of: .max) + 1, minimum <= maximum,
              counts.reduce(0, { $0 + Int($1) }) == count, count > 0 || (sum == 0 && maximum == 0) else { return nil }
        self.counts = counts
        self.count = count
        self.sum = sum
        self.minimum = minimum
        self.maximum = maximum
    }

    /// Records one duration.
    @inlinable
    public mutating func record(_ nanoseconds: UInt64) {
        recordSample(nanoseconds)
    }

    @usableFromInline
    mutating func recordSample(_ value: UInt64) {
        let index = Self.bucket(of: value)
        if index >= counts.count {
            counts.append(contentsOf: repeatElement(0, count: index - counts.count + 1))
        }
        counts[index] &+= 1
        if count == 0 {
            minimum = value
            maximum = value
        } else {
            if value < minimum { minimum = value }
            if value > maximum { maximum = value }
        }
        count += 1
        sum = sum.saturatingAdd(value)
    }

    /// Adds every sample of `other` to this histogram.
    public mutating func merge(_ other: DurationHistogram) {
        guard other.count > 0 else { return }
        if other.counts.count > counts.count {
            counts.append(contentsOf: repeatElement(0, count: other.counts.count - counts.count))
        }
        for (index, value) in other.counts.enumerated() { counts[index] &+= value }
        if count == 0 {
            minimum = other.minimum
            maximum = other.maximum
        } else {
            minimum = Swift.min(minimum, other.minimum)
            maximum = Swift.max(maximum, other.maximum)
        }
        count += other.count
        sum = sum.saturatingAdd(other.sum)
    }

    /// The duration below which `fraction` (0...1) of the samples fall, or 0 when empty.
    public func percentile(_ fraction: Double) -> UInt64 {
        guard count > 0 else { return 0 }
        let clamped = Swift.min(Swift.max(fraction, 0), 1)
        // The rank of the wanted sample, 1-based (nearest-rank method).
        let rank = Swift.max(1, Int((clamped * Double(count)).rounded(.up)))
        var seen = 0
        for (index, bucketCount) in counts.enumerated() {
            seen += Int(bucketCount)
            if seen >= rank {
                let (low, high) = Self.bounds(of: index)
                let middle = low + (high - low) / 2
                return Swift.min(Swift.max(middle, minimum), maximum)
            }
        }
        return maximum
    }

    /// The samples recorded since `earlier`, an earlier state of this same
    /// histogram (a live view's last interval). Its minimum and maximum are
    /// the bounds of the lowest and highest bucket that grew, clamped to this
    /// histogram's own.
    public func subtracting(_ earlier: DurationHistogram) -> DurationHistogram {
        var result = DurationHistogram()
        guard count > earlier.count else { return result }
        result.counts = counts
        for (index, value) in earlier.counts.enumerated() where index < result.counts.count {
            result.counts[index] &-= Swift.min(value, result.counts[index])
        }
        result.count = count - earlier.count
        result.sum = sum &- earlier.sum
        if let low = result.counts.firstIndex(where: { $0 > 0 }), let high = result.counts.lastIndex(where: { $0 > 0 }) {
            result.minimum = Swift.max(Self.bounds(of: low).0, minimum)
            result.maximum = Swift.min(Self.bounds(of: high).1, maximum)
        }
        return result
    }

    /// The mean duration, or 0 when empty.
    public var mean: UInt64 { count == 0 ? 0 : sum / UInt64(count) }

    /// The bucket a value falls into.
    static func bucket(of value: UInt64) -> Int {
        if value < 8 { return Int(value) }
        let exponent = 63 - value.leadingZeroBitCount       // >= 3
        let mantissa = Int(value >> UInt64(exponent - 3))  // 8...15
        return (exponent - 3) * 8 + mantissa
    }

    /// The smallest and largest value of a bucket.
    static func bounds(of index: Int) -> (UInt64, UInt64) {
        if index < 8 { return (UInt64(index), UInt64(index)) }
        let exponent = index / 8 + 2
        let mantissa = UInt64(index % 8 + 8)
        let low = mantissa << UInt64(exponent - 3)
        let high = ((mantissa + 1) << UInt64(exponent - 3)) &- 1
        return (low, high)
    }
}
