/// The change between two traces of the same program (a base, e.g. main,
/// and a head, e.g. a pull request), per computation and per action,
/// matched by name because ids differ from one run to the next.
public struct TraceDiff: Sendable, Equatable, Codable {
    /// What is compared for one name in one trace.
    public struct Measures: Sendable, Equatable, Codable {
        /// Reruns (computations) or reruns caused (actions).
        public var reruns: Int
        /// Total time of every run, first runs included (computations, as `hot`'s total), or time
        /// inside the action (actions), in nanoseconds.
        public var totalNanoseconds: UInt64
        /// Instances (computations sharing the name) or invocations (actions).
        public var count: Int
        /// The typical run, which the noise rule compares: the median run (p50) of a
        /// computation, the median invocation of an action.
        public var typicalNanoseconds: UInt64

        /// Creates measures.
        public init(reruns: Int, totalNanoseconds: UInt64, count: Int, typicalNanoseconds: UInt64 = 0) {
            self.reruns = reruns
            self.totalNanoseconds = totalNanoseconds
            self.count = count
            self.typicalNanoseconds = typicalNanoseconds
        }
    }

    /// Whether a name exists in both traces.
    public enum Status: String, Sendable, Codable {
        /// In both, with different reruns or a time change beyond the noise rule.
        case changed
        /// In both, with equal reruns and time within the noise rule.
        case unchanged
        /// Only in the head.
        case new
        /// Only in the base.
        case gone
    }

    /// One computation or action compared.
    public struct Entry: Sendable, Equatable, Codable {
        /// The computation's name or the action's `Store.action`.
        public var name: String
        /// `autorun`, `computed` or `action`.
        public var kind: String
        /// Present in both, new or gone.
        public var status: Status
        /// Measures in the base trace (nil when new).
        public var base: Measures?
        /// Measures in the head trace (nil when gone).
        public var head: Measures?
        /// head − base reruns (missing side counts as 0).
        public var rerunsDelta: Int
        /// The reruns change in percent of the base; nil when the base has none.
        public var rerunsPercent: Double?
        /// head − base time in nanoseconds.
        public var timeDeltaNanoseconds: Int64
        /// The time change in percent of the base; nil when the base has none.
        public var timePercent: Double?
        /// The typical run's change in percent of the base's (nil when the base's is 0):
        /// what the noise rule judges.
        public var typicalPercent: Double?
        /// True when the typical run moved beyond the noise rule.
        public var timeChanged: Bool
        /// True when this entry counts as a regression under the diff's threshold.
        public var regressed: Bool
    }

    /// Computations, most impact first (largest time change, then reruns change).
    public var computations: [Entry]
    /// Actions, most impact first.
    public var actions: [Entry]
    /// The threshold (percent) used for ``Entry/regressed``; nil when none was given.
    public var regressionThresholdPercent: Double?
    /// Typical-run changes smaller than this (nanoseconds) are noise: timer jitter.
    public var minimumTimeNanoseconds: UInt64

    /// Typical-run changes within this percentage are noise (docs/PROFILING_IN_CI.md, "The noise rule"):
    /// about twice the largest spread measured between recordings of the same scenario.
    public static let noisePercent: Double = 25

    /// Compares `base` with `head`. Reruns are exact (the same scenario reruns the same
    /// computations); time is judged by the noise rule: the typical run (a computation's
    /// median run, an action's median invocation) changes when it moves by more than
    /// ``noisePercent`` and by more than `minimumTimeNanoseconds`. With
    /// `regressionThresholdPercent`, an entry in both traces regresses when its reruns grow
    /// by more than that percentage, or its typical run grows beyond the noise rule and by
    /// more than that percentage; growing from zero counts as infinitely many percent.
    /// New and gone names never regress.
    public init(base: TraceProfile, head: TraceProfile, regressionThresholdPercent: Double? = nil,
                minimumTimeNanoseconds: UInt64 = 1_000) {
        self.init(base: base.figures, head: head.figures, regressionThresholdPercent: regressionThresholdPercent,
                  minimumTimeNanoseconds: minimumTimeNanoseconds)
    }

    /// Compares two profiles' figures (as a pass or the index gives them), as the
    /// initializer over two profiles does.
    public init(base: ProfileFigures, head: ProfileFigures, regressionThresholdPercent: Double? = nil,
                minimumTimeNanoseconds: UInt64 = 1_000) {
        self.regressionThresholdPercent = regressionThresholdPercent
        self.minimumTimeNanoseconds = minimumTimeNanoseconds
        func computationMeasures(_ profile: ProfileFigures) -> [String: (String, Measures)] {
            Dictionary(profile.computations.map {
                ($0.name, ($0.kind, Measures(reruns: $0.reruns, totalNanoseconds: $0.stats.totalNanoseconds, count: $0.instances,
                                             typicalNanoseconds: $0.stats.p50Nanoseconds)))
            }, uniquingKeysWith: { first, _ in first })
        }
        func actionMeasures(_ profile: ProfileFigures) -> [String: (String, Measures)] {
            var durations: [String: DurationHistogram] = [:]
            for action in profile.model.actions { durations[action.qualifiedName, default: DurationHistogram()].merge(action.durations) }
            return Dictionary(profile.actions.map {
                ($0.qualifiedName, ("action", Measures(reruns: $0.rerunsCaused, totalNanoseconds: $0.totalNanoseconds,
                                                        count: $0.invocations,
                                                        typicalNanoseconds: durations[$0.qualifiedName]?.percentile(0.5) ?? 0)))
            }, uniquingKeysWith: { first, _ in first })
        }
        computations = Self.compare(computationMeasures(base), computationMeasures(head),
                                    threshold: regressionThresholdPercent, minimumTime: minimumTimeNanoseconds)
        actions = Self.compare(actionMeasures(base), actionMeasures(head),
                               threshold: regressionThresholdPercent, minimumTime: minimumTimeNanoseconds)
    }

    /// Every entry that regressed.
    public var regressions: [Entry] { (computations + actions).filter(\.regressed) }

    /// The process exit code for `diff`: 1 when a threshold was given and something regressed past it.
    public var exitCode: Int32 { regressions.isEmpty ? 0 : 1 }

    /// Both traces' sums over every name of a section: reruns and total time.
    public struct Totals: Sendable, Equatable, Codable {
        /// The base's sums.
        public var base: Measures
        /// The head's sums.
        public var head: Measures
    }

    /// The sums of `entries` (a section: computations or actions), on each side.
    public static func totals(of entries: [Entry]) -> Totals {
        func sum(_ side: (Entry) -> Measures?) -> Measures {
            entries.compactMap(side).reduce(Measures(reruns: 0, totalNanoseconds: 0, count: 0)) {
                Measures(reruns: $0.reruns + $1.reruns, totalNanoseconds: $0.totalNanoseconds.saturatingAdd($1.totalNanoseconds),
                         count: $0.count + $1.count)
            }
        }
        return Totals(base: sum(\.base), head: sum(\.head))
    }

    private static func compare(_ base: [String: (String, Measures)], _ head: [String: (String, Measures)],
                                threshold: Double?, minimumTime: UInt64) -> [Entry] {
        let names = Set(base.keys).union(head.keys)
        let entries = names.map { name -> Entry in
            let before = base[name]?.1
            let after = head[name]?.1
            let kind = head[name]?.0 ?? base[name]?.0 ?? "autorun"
            let rerunsDelta = (after?.reruns ?? 0) - (before?.reruns ?? 0)
            let timeDelta = (after?.totalNanoseconds ?? 0).signedDistance(from: before?.totalNanoseconds ?? 0)
            let rerunsPercent = before.flatMap { $0.reruns == 0 ? nil : Double(rerunsDelta) / Double($0.reruns) * 100 }
            let timePercent = before.flatMap { $0.totalNanoseconds == 0 ? nil : Double(timeDelta) / Double($0.totalNanoseconds) * 100 }
            let typicalDelta = (after?.typicalNanoseconds ?? 0).signedDistance(from: before?.typicalNanoseconds ?? 0)
            let typicalPercent = before.flatMap {
                $0.typicalNanoseconds == 0 ? nil : Double(typicalDelta) / Double($0.typicalNanoseconds) * 100
            }
            let timeChanged = before != nil && after != nil && typicalDelta.magnitude > minimumTime
                && (typicalPercent.map { abs($0) > noisePercent } ?? true)
            let status: Status
            switch (before, after) {
            case (nil, _): status = .new
            case (_, nil): status = .gone
            case let (b?, a?): status = b.reruns == a.reruns && !timeChanged ? .unchanged : .changed
            }
            var regressed = false
            if let threshold, status == .changed {
                let rerunsGrew = rerunsDelta > 0 && (rerunsPercent.map { $0 > threshold } ?? true)
                let timeGrew = timeChanged && typicalDelta > 0 && (typicalPercent.map { $0 > threshold } ?? true)
                regressed = rerunsGrew || timeGrew
            }
            return Entry(name: name, kind: kind, status: status, base: before, head: after, rerunsDelta: rerunsDelta,
                         rerunsPercent: rerunsPercent, timeDeltaNanoseconds: timeDelta, timePercent: timePercent,
                         typicalPercent: typicalPercent, timeChanged: timeChanged, regressed: regressed)
        }
        return entries.sorted { lhs, rhs in
            let lt = lhs.timeDeltaNanoseconds.magnitude, rt = rhs.timeDeltaNanoseconds.magnitude
            if lt != rt { return lt > rt }
            let lr = lhs.rerunsDelta.magnitude, rr = rhs.rerunsDelta.magnitude
            if lr != rr { return lr > rr }
            return lhs.name < rhs.name
        }
    }
}
