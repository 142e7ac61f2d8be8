import ReactorTraceFormat

/// One computation's figures as every JSON output gives them: the same keys,
/// the same meanings (docs/METRICS.md), from the one model of the trace.
/// Instances that share a name and kind are added up.
public struct ComputationRecord: Sendable, Equatable, Codable {
    /// The computation's name (``TraceNode/name``).
    public var name: String
    /// The node kind's label: `autorun`, `computed`, or a signal node that runs (`operator`, `binding`…).
    public var kind: String
    /// Every run, first runs included.
    public var runs: Int
    /// Runs after the first: `runs` minus one per instance that ran.
    public var reruns: Int
    /// Wall time of every run, first runs and nested runs included.
    public var totalNanoseconds: UInt64
    /// `totalNanoseconds` minus the time of the runs nested inside them.
    public var selfNanoseconds: UInt64
    /// The longest run, first runs included.
    public var maxNanoseconds: UInt64
    /// The median run, first runs included (within the histogram's precision).
    public var p50Nanoseconds: UInt64
    /// The 99th percentile run, first runs included (within the histogram's precision).
    public var p99Nanoseconds: UInt64

    /// The record of `runs`, the added-up runs of the computations named `name` of `kind`.
    public init(name: String, kind: TraceNodeKind, runs: RunStats) {
        self.name = name
        self.kind = kind.label
        self.runs = runs.runs
        self.reruns = runs.reruns
        totalNanoseconds = runs.totalNanoseconds
        selfNanoseconds = runs.selfNanoseconds
        maxNanoseconds = runs.maxNanoseconds
        p50Nanoseconds = runs.p50Nanoseconds
        p99Nanoseconds = runs.p99Nanoseconds
    }

    /// Every computation of `model`, grouped by kind and name, in order of first appearance.
    public static func all(in model: TraceModel) -> [ComputationRecord] {
        ComputationGroup.all(in: model).map { ComputationRecord(name: $0.name, kind: $0.kind, runs: $0.runs) }
    }
}
