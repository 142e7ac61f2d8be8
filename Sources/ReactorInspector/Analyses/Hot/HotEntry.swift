import ReactorTraceFormat

/// One computation (all instances sharing a name and kind) in the `hot` report.
/// Its JSON form is the contract of `hot --json`.
public struct HotEntry: Sendable, Equatable, Codable {
    /// The computation's name.
    public let name: String
    /// `autorun` or `computed`.
    public let kind: String
    /// How many instances had this name (a nested autorun is recreated by each parent run).
    public let instances: Int
    /// Every run, first runs included.
    public let runs: Int
    /// Runs after the first.
    public let reruns: Int
    /// Total wall time of its runs.
    public let totalNanoseconds: UInt64
    /// Total time minus the runs nested inside its runs.
    public let selfNanoseconds: UInt64
    /// Median run duration.
    public let p50Nanoseconds: UInt64
    /// 99th percentile run duration.
    public let p99Nanoseconds: UInt64
    /// Longest run.
    public let maxNanoseconds: UInt64
    /// Invalidations, all causes.
    public let invalidations: Int
    /// What invalidated it most: dependency names, or `parent`, `explicit`, `stop`.
    public let topCauses: [CauseCount]
    /// The actions at the root of its runs, most frequent first.
    public let topActions: [CauseCount]
    /// Where it was created (`#fileID:#line`), when the trace records sites; the key is omitted otherwise.
    public let site: String?

    /// Creates an entry.
    public init(name: String, kind: String, instances: Int, runs: Int, reruns: Int, totalNanoseconds: UInt64,
                selfNanoseconds: UInt64, p50Nanoseconds: UInt64, p99Nanoseconds: UInt64, maxNanoseconds: UInt64,
                invalidations: Int, topCauses: [CauseCount], topActions: [CauseCount], site: String? = nil) {
        self.name = name
        self.kind = kind
        self.instances = instances
        self.runs = runs
        self.reruns = reruns
        self.totalNanoseconds = totalNanoseconds
        self.selfNanoseconds = selfNanoseconds
        self.p50Nanoseconds = p50Nanoseconds
        self.p99Nanoseconds = p99Nanoseconds
        self.maxNanoseconds = maxNanoseconds
        self.invalidations = invalidations
        self.topCauses = topCauses
        self.topActions = topActions
        self.site = site
    }
}
