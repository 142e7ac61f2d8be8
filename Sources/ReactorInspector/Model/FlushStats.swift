/// The flushes of a trace.
public struct FlushStats: Sendable, Equatable {
    /// How many flushes ran.
    public var count = 0
    /// Their total wall time.
    public var totalNanoseconds: UInt64 = 0
    /// The longest one.
    public var maxNanoseconds: UInt64 = 0

    /// No flushes.
    public init() {}

    mutating func record(_ nanoseconds: UInt64) {
        count += 1
        totalNanoseconds = totalNanoseconds.saturatingAdd(nanoseconds)
        maxNanoseconds = max(maxNanoseconds, nanoseconds)
    }
}
