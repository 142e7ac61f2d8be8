/// How often and how long a computation (an autorun or a computed) ran.
public struct RunStats: Sendable, Equatable {
    /// Every run, the first included.
    public var runs: Int = 0
    /// Runs that were a computation's first (one per instance that ran).
    public var firstRuns: Int = 0
    /// Wall time of all runs, nested runs included.
    public var totalNanoseconds: UInt64 = 0
    /// Wall time of all runs minus the time spent in runs nested inside them.
    public var selfNanoseconds: UInt64 = 0
    /// The distribution of run durations (bounded memory).
    public var durations = DurationHistogram()
    /// Wall time of the reruns only (first runs left out): budgets' "rerun time".
    public var rerunNanoseconds: UInt64 = 0
    /// The longest rerun (first runs left out), exact.
    public var maxRerunNanoseconds: UInt64 = 0

    /// An empty record.
    public init() {}

    /// Runs after the first: what `hot` ranks and reports as `reruns`.
    public var reruns: Int { runs - firstRuns }
    /// The longest run.
    public var maxNanoseconds: UInt64 { durations.maximum }
    /// The mean run: total over runs (0 without runs).
    public var meanNanoseconds: UInt64 { runs == 0 ? 0 : totalNanoseconds / UInt64(runs) }
    /// The median run duration (within the histogram's precision).
    public var p50Nanoseconds: UInt64 { durations.percentile(0.5) }
    /// The 99th percentile run duration (within the histogram's precision).
    public var p99Nanoseconds: UInt64 { durations.percentile(0.99) }

    /// Adds one run's duration (its `runs` count is kept apart, at its beginning): total,
    /// self, the distribution, and for a rerun the rerun time and longest rerun.
    public mutating func ended(duration: UInt64, exclusive: UInt64, firstRun: Bool) {
        totalNanoseconds = totalNanoseconds.saturatingAdd(duration)
        selfNanoseconds = selfNanoseconds.saturatingAdd(exclusive)
        durations.record(duration)
        if !firstRun {
            rerunNanoseconds = rerunNanoseconds.saturatingAdd(duration)
            maxRerunNanoseconds = max(maxRerunNanoseconds, duration)
        }
    }

    /// Adds the runs of another instance (for grouping instances by name).
    public mutating func merge(_ other: RunStats) {
        runs += other.runs
        firstRuns += other.firstRuns
        totalNanoseconds = totalNanoseconds.saturatingAdd(other.totalNanoseconds)
        selfNanoseconds = selfNanoseconds.saturatingAdd(other.selfNanoseconds)
        durations.merge(other.durations)
        rerunNanoseconds = rerunNanoseconds.saturatingAdd(other.rerunNanoseconds)
        maxRerunNanoseconds = max(maxRerunNanoseconds, other.maxRerunNanoseconds)
    }
}
