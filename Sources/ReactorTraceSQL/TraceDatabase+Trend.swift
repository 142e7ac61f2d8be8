import ReactorInspector

extension TraceDatabase {
    /// The recordings the database holds, for `trend`: reruns and rerun time
    /// per computation from `node_stats` (unneeded reruns are not stored: nil).
    /// Commit and scenario are the metadata's, else the trace path's folder and file name.
    public func trendRecordings() throws(TraceSQLError) -> [TrendRecording] {
        let traces = try connection.prepare("""
            SELECT trace, path, commit_id, scenario, coalesce(recorded_at_ns, 0), imported FROM traces ORDER BY imported
            """)
        var recordings: [TrendRecording] = []
        while try traces.step() {
            let label = traces.value(0).text, path = traces.value(1).text
            let (folder, stem) = TrendRecording.labels(ofPath: path)
            let commit = traces.value(2) == .null ? folder : traces.value(2).text
            let scenario = traces.value(3) == .null ? stem : traces.value(3).text
            var recordedAt: UInt64 = 0
            if case let .integer(value) = traces.value(4) { recordedAt = UInt64(bitPattern: value) }
            let runs = try connection.prepare("""
                SELECT name, sum(reruns), sum(rerun_ns) FROM node_stats WHERE trace = ?1 AND runs > 0 GROUP BY name
                """)
            runs.bind(1, label)
            var computations: [String: TrendRecording.Figures] = [:]
            while try runs.step() {
                var reruns = 0, time: UInt64 = 0
                if case let .integer(value) = runs.value(1) { reruns = Int(value) }
                if case let .integer(value) = runs.value(2) { time = UInt64(bitPattern: value) }
                computations[runs.value(0).text] = TrendRecording.Figures(reruns: reruns, unneededReruns: nil,
                                                                         rerunNanoseconds: time)
            }
            recordings.append(TrendRecording(commit: commit, scenario: scenario, source: label, recordedAt: recordedAt,
                                             computations: computations))
        }
        return recordings
    }
}
