/// Regressions across runs (`reactor-inspect trend`): per scenario, the series
/// of rerun counts, unneeded reruns and rerun times over commits in recording
/// order, and where they changed.
///
/// Counts are exact, so a count's change point is exact: the first recording
/// whose count differs from the one before. Times are noisy, so a time changes
/// only beyond the series' noise (``timeChangeRule``).
public struct TrendReport: Sendable {
    /// One scenario's recordings in order, and its change points.
    public struct Scenario: Sendable, Equatable, Codable {
        /// The scenario's name.
        public var name: String
        /// The commits in recording order.
        public var commits: [String]
        /// All reruns, per recording.
        public var reruns: [Int]
        /// All unneeded reruns, per recording (nil where it cannot be judged: no values).
        public var unneededReruns: [Int?]
        /// All rerun time, per recording.
        public var rerunNanoseconds: [UInt64]
        /// Where the series changed, in recording order.
        public var changes: [TrendChange]
    }

    /// Every scenario, by name.
    public let scenarios: [Scenario]

    /// The rule a time must pass to count as a change, in words (docs/PROFILING_IN_CI.md).
    public static let timeChangeRule = "a scenario's rerun time changes at a recording when it lies farther from the median of all"
        + " the recordings before it (at least 3) than the largest of 4 × their median absolute deviation (× 1.4826),"
        + " 25 % of that median, and 50 µs"

    /// Orders `recordings` by when they were recorded (ties in the order given) and finds the change points.
    public init(recordings: [TrendRecording]) {
        let ordered = recordings.enumerated().sorted { ($0.element.recordedAt, $0.offset) < ($1.element.recordedAt, $1.offset) }
            .map(\.element)
        var order: [String] = []
        var byScenario: [String: [TrendRecording]] = [:]
        for recording in ordered {
            if byScenario[recording.scenario] == nil { order.append(recording.scenario) }
            byScenario[recording.scenario, default: []].append(recording)
        }
        scenarios = order.sorted().map { Self.scenario($0, byScenario[$0]!) }
    }

    /// Every change point, scenario by scenario.
    public var changes: [TrendChange] { scenarios.flatMap(\.changes) }

    private static func scenario(_ name: String, _ recordings: [TrendRecording]) -> Scenario {
        var changes: [TrendChange] = []
        let names = Set(recordings.flatMap(\.computations.keys)).sorted()
        for index in recordings.indices.dropFirst() {
            let before = recordings[index - 1], now = recordings[index]
            for computation in names {
                let old = before.computations[computation], new = now.computations[computation]
                let oldReruns = old?.reruns ?? 0, newReruns = new?.reruns ?? 0
                if oldReruns != newReruns {
                    changes.append(TrendChange(scenario: name, commit: now.commit, previousCommit: before.commit,
                                               computation: computation, metric: .reruns,
                                               from: Int64(oldReruns), to: Int64(newReruns)))
                }
                if let oldUnneeded = old.map({ $0.unneededReruns }) ?? (before.unneededReruns == nil ? nil : 0),
                   let newUnneeded = new.map({ $0.unneededReruns }) ?? (now.unneededReruns == nil ? nil : 0),
                   oldUnneeded != newUnneeded {
                    changes.append(TrendChange(scenario: name, commit: now.commit, previousCommit: before.commit,
                                               computation: computation, metric: .unneededReruns,
                                               from: Int64(oldUnneeded), to: Int64(newUnneeded)))
                }
            }
        }
        let times = recordings.map(\.rerunNanoseconds)
        if let index = timeChange(in: times) {
            let baseline = median(times[..<index].map { Double($0) })
            changes.append(TrendChange(scenario: name, commit: recordings[index].commit,
                                       previousCommit: recordings[index - 1].commit, computation: nil,
                                       metric: .rerunNanoseconds, from: Int64(baseline.rounded()),
                                       to: Int64(clamping: times[index])))
        }
        // The time's change point goes among the counts' by its recording.
        let ordered = changes.enumerated().sorted {
            (position($0.element, recordings), $0.offset) < (position($1.element, recordings), $1.offset)
        }.map(\.element)
        return Scenario(name: name, commits: recordings.map(\.commit), reruns: recordings.map(\.reruns),
                        unneededReruns: recordings.map(\.unneededReruns), rerunNanoseconds: times, changes: ordered)
    }

    private static func position(_ change: TrendChange, _ recordings: [TrendRecording]) -> Int {
        recordings.firstIndex { $0.commit == change.commit } ?? 0
    }

    /// The first recording whose time lies beyond the noise of those before it (``timeChangeRule``).
    static func timeChange(in times: [UInt64]) -> Int? {
        guard times.count > 3 else { return nil }
        for index in 3..<times.count {
            let baseline = times[..<index].map { Double($0) }
            let center = median(baseline)
            let deviation = median(baseline.map { abs($0 - center) }) * 1.4826
            let threshold = max(4 * deviation, 0.25 * center, 50_000)
            if abs(Double(times[index]) - center) > threshold { return index }
        }
        return nil
    }

    static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}

/// One change point of a trend: a figure that changed at a commit.
public struct TrendChange: Sendable, Equatable, Codable {
    /// Which figure.
    public enum Metric: String, Sendable, Codable {
        case reruns, unneededReruns, rerunNanoseconds
    }

    /// The scenario.
    public var scenario: String
    /// The first commit with the new value.
    public var commit: String
    /// The commit recorded just before it.
    public var previousCommit: String
    /// The computation whose count changed; nil for the scenario's rerun time.
    public var computation: String?
    /// Which figure changed.
    public var metric: Metric
    /// Its value before (for a time: the median of the recordings before).
    public var from: Int64
    /// Its value at `commit`.
    public var to: Int64

    /// One line: `list: reruns 14 → 15 at c4 (after c3)`.
    public var sentence: String {
        switch metric {
        case .reruns, .unneededReruns:
            let what = metric == .reruns ? "reruns" : "unneeded reruns"
            return "\(computation ?? scenario): \(what) \(from) → \(to) at \(commit) (after \(previousCommit))"
        case .rerunNanoseconds:
            return "rerun time \(DurationText.format(UInt64(max(0, from)))) (median before) → "
                + "\(DurationText.format(UInt64(max(0, to)))) at \(commit) (after \(previousCommit))"
        }
    }
}
