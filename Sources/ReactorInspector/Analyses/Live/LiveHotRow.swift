/// One computation in a live view's hot table: its rates over the last
/// interval beside its totals over the whole trace so far.
public struct LiveHotRow: Sendable, Codable, Equatable {
    /// The computation's name (instances of one name and kind together, as in `hot`).
    public let name: String
    /// `computation` or `computed`.
    public let kind: String
    /// How many instances it has.
    public let instances: Int
    /// Reruns over the whole trace so far.
    public let reruns: Int
    /// Reruns in the last interval.
    public let intervalReruns: Int
    /// Reruns per second over the last interval.
    public let rerunsPerSecond: Double
    /// Run time per second of the last interval, in nanoseconds (1e9: one whole core).
    public let nanosecondsPerSecond: Double
    /// The p99 run time in the last interval (0 when it did not run).
    public let intervalP99Nanoseconds: UInt64
    /// The p99 run time over the whole trace.
    public let p99Nanoseconds: UInt64
    /// Total run time over the whole trace.
    public let totalNanoseconds: UInt64

    /// A row with the given figures.
    public init(name: String, kind: String, instances: Int, reruns: Int, intervalReruns: Int, rerunsPerSecond: Double,
                nanosecondsPerSecond: Double, intervalP99Nanoseconds: UInt64, p99Nanoseconds: UInt64,
                totalNanoseconds: UInt64) {
        self.name = name
        self.kind = kind
        self.instances = instances
        self.reruns = reruns
        self.intervalReruns = intervalReruns
        self.rerunsPerSecond = rerunsPerSecond
        self.nanosecondsPerSecond = nanosecondsPerSecond
        self.intervalP99Nanoseconds = intervalP99Nanoseconds
        self.p99Nanoseconds = p99Nanoseconds
        self.totalNanoseconds = totalNanoseconds
    }
}
