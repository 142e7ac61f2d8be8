import ReactorTraceFormat

extension ProfileReport {
    /// The report as JSON: `report --format json`.
    struct Document: Encodable {
        struct Action: Encodable {
            var name: String
            var invocations: Int
            var rerunsCaused: Int
            var totalNanoseconds: UInt64
            var maxNanoseconds: UInt64
        }

        var trace: String
        var events: Int
        var durationNanoseconds: UInt64
        var runs: Int
        var reruns: Int
        var rerunNanoseconds: UInt64
        var issues: Int
        /// Every computation, as ``ComputationRecord``s, most total time first.
        var computations: [ComputationRecord]
        var actions: [Action]
        /// Unneeded work (``WasteReport``): reruns that read only equal values, and equal results.
        var waste: [WasteEntry]
        /// Reruns judged unneeded in all; `wasteJudged` is false for a trace without values.
        var unneededReruns: Int
        var wasteJudged: Bool
    }

    /// The report's figures as one JSON object: the totals, a `computations`
    /// array of ``ComputationRecord``s (every computation, most total time
    /// first) and the actions (docs/METRICS.md).
    public func json() throws -> String {
        let model = profile.model
        let computations = ComputationRecord.all(in: model).sorted {
            if $0.totalNanoseconds != $1.totalNanoseconds { return $0.totalNanoseconds > $1.totalNanoseconds }
            if $0.reruns != $1.reruns { return $0.reruns > $1.reruns }
            return ($0.name, $0.kind) < ($1.name, $1.kind)
        }
        let totals = self.totals
        let waste = profile.waste
        let document = Document(
            trace: traceName, events: model.totalEvents, durationNanoseconds: model.durationNanoseconds,
            runs: computations.reduce(0) { $0 + $1.runs }, reruns: totals.reruns,
            rerunNanoseconds: totals.rerunNanoseconds, issues: totals.issues, computations: computations,
            actions: rankedActions.map {
                Document.Action(name: $0.qualifiedName, invocations: $0.invocations, rerunsCaused: $0.rerunsCaused,
                                totalNanoseconds: $0.totalNanoseconds, maxNanoseconds: $0.maxNanoseconds)
            }, waste: waste.entries, unneededReruns: waste.unneededReruns, wasteJudged: waste.hasValues)
        return try JSONText.encode(document)
    }
}
