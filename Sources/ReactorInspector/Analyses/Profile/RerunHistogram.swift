/// Counts of durations in power-of-two buckets: bucket `i` holds durations
/// in `[2^i, 2^(i+1))` nanoseconds (bucket 0 also holds 0). Constant memory
/// whatever the number of reruns.
public struct RerunHistogram: Sendable, Equatable {
    /// Counts per bucket, 64 buckets.
    public private(set) var buckets = [Int](repeating: 0, count: 64)
    /// How many durations were added.
    public private(set) var count = 0

    /// An empty histogram.
    public init() {}

    /// A histogram with these 64 bucket counts (nil for another number of buckets or a negative count).
    init?(buckets: [Int]) {
        guard buckets.count == 64, buckets.allSatisfy({ $0 >= 0 }) else { return nil }
        var total = 0
        for count in buckets {
            let (sum, overflow) = total.addingReportingOverflow(count)
            guard !overflow else { return nil }
            total = sum
        }
        self.buckets = buckets
        count = total
    }

    /// The bucket of `nanoseconds`.
    public static func bucket(of nanoseconds: UInt64) -> Int {
        nanoseconds == 0 ? 0 : 63 - nanoseconds.leadingZeroBitCount
    }

    /// The lower bound of bucket `index` in nanoseconds (`UInt64.max` past the
    /// last bucket: the upper bound of bucket 63).
    public static func lowerBound(ofBucket index: Int) -> UInt64 {
        index <= 0 ? 0 : index >= 64 ? .max : 1 << UInt64(index)
    }

    /// Adds one duration.
    public mutating func add(_ nanoseconds: UInt64) {
        buckets[Self.bucket(of: nanoseconds)] += 1
        count += 1
    }

    /// The buckets from the first to the last non-empty one (empty when nothing was added).
    public var occupiedRange: ClosedRange<Int>? {
        guard let first = buckets.firstIndex(where: { $0 > 0 }), let last = buckets.lastIndex(where: { $0 > 0 }) else {
            return nil
        }
        return first...last
    }

    /// The upper bound of the bucket holding the `fraction` quantile (0…1), in nanoseconds.
    public func quantileUpperBound(_ fraction: Double) -> UInt64 {
        guard count > 0 else { return 0 }
        let target = max(1, Int((fraction * Double(count)).rounded(.up)))
        var seen = 0
        for (index, bucketCount) in buckets.enumerated() {
            seen += bucketCount
            if seen >= target { return index >= 63 ? .max : (1 << UInt64(index + 1)) - 1 }
        }
        return .max
    }
}
