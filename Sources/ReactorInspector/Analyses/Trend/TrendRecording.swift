/// One recording of a scenario at a commit: the figures a trend follows.
public struct TrendRecording: Sendable, Equatable {
    /// Per computation name: its reruns, unneeded reruns and rerun time.
    public struct Figures: Sendable, Equatable {
        /// Runs after the first.
        public var reruns: Int
        /// Reruns that read only equal values (``WasteReport``); nil when the recording cannot tell (no values).
        public var unneededReruns: Int?
        /// Wall time of the reruns.
        public var rerunNanoseconds: UInt64

        /// Creates figures.
        public init(reruns: Int, unneededReruns: Int?, rerunNanoseconds: UInt64) {
            self.reruns = reruns
            self.unneededReruns = unneededReruns
            self.rerunNanoseconds = rerunNanoseconds
        }
    }

    /// The commit it was recorded at (the metadata's, else the trace's folder name).
    public var commit: String
    /// The scenario recorded (the metadata's, else the trace's file name without `.trace`).
    public var scenario: String
    /// Where it came from (a path, or a database's trace label).
    public var source: String
    /// When the recording began (wall clock, nanoseconds since 1970): the series' order.
    public var recordedAt: UInt64
    /// Per computation name.
    public var computations: [String: Figures]

    /// Creates a recording.
    public init(commit: String, scenario: String, source: String, recordedAt: UInt64, computations: [String: Figures]) {
        self.commit = commit
        self.scenario = scenario
        self.source = source
        self.recordedAt = recordedAt
        self.computations = computations
    }

    /// The figures of a recording read into `profile` (the one model, and the waste judged on it).
    public init(profile: TraceProfile, commit: String, scenario: String, source: String, recordedAt: UInt64) {
        let waste = WasteReport(profile: profile)
        var unneeded: [String: Int] = [:]
        for entry in waste.entries { unneeded[entry.name, default: 0] += entry.unneededReruns }
        var computations: [String: Figures] = [:]
        for computation in profile.computations {
            var figures = computations[computation.name] ?? Figures(reruns: 0, unneededReruns: waste.hasValues ? 0 : nil,
                                                                   rerunNanoseconds: 0)
            figures.reruns += computation.reruns
            figures.rerunNanoseconds = figures.rerunNanoseconds.saturatingAdd(computation.totalRerunNanoseconds)
            if waste.hasValues { figures.unneededReruns = unneeded[computation.name] ?? 0 }
            computations[computation.name] = figures
        }
        self.init(commit: commit, scenario: scenario, source: source, recordedAt: recordedAt, computations: computations)
    }

    /// Every rerun of the recording.
    public var reruns: Int { computations.values.reduce(0) { $0 + $1.reruns } }
    /// Every unneeded rerun, nil without values.
    public var unneededReruns: Int? {
        computations.values.contains { $0.unneededReruns == nil } ? nil
            : computations.values.reduce(0) { $0 + ($1.unneededReruns ?? 0) }
    }
    /// The wall time of every rerun.
    public var rerunNanoseconds: UInt64 { computations.values.reduce(0) { $0.saturatingAdd($1.rerunNanoseconds) } }
}

extension TrendRecording {
    /// A trace's commit and scenario when it holds no metadata: the name of its
    /// folder (`history/<commit>/<scenario>.trace`) and its file name without `.trace`.
    public static func labels(ofPath path: String) -> (commit: String, scenario: String) {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        let file = parts.last ?? path
        let scenario = file.hasSuffix(".trace") ? String(file.dropLast(".trace".count)) : file
        let commit = parts.count >= 2 ? parts[parts.count - 2] : "."
        return (commit, scenario)
    }
}
