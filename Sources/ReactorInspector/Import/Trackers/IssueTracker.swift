import ReactorTraceFormat

/// The importer's issue tracker: every issue counted by kind, the first
/// `limit` kept with their messages.
struct IssueTracker {
    let limit: Int
    /// Issues by kind code.
    private var counts = [Int](repeating: 0, count: 16)
    /// The first issues, in trace order.
    private(set) var kept: [TraceIssueRecord] = []

    init(limit: Int) {
        self.limit = limit
    }

    /// The tracker as a checkpoint kept it: `byKind` counts, the first issues `kept`.
    init(limit: Int, byKind: [TraceIssueKind: Int], kept: [TraceIssueRecord]) {
        self.limit = limit
        for (kind, count) in byKind { counts[Int(kind.rawValue)] = count }
        self.kept = kept
    }

    mutating func record(_ kind: TraceIssueKind, node: UInt64, message: String, at time: UInt64) {
        counts[Int(kind.rawValue)] += 1
        if kept.count < limit { kept.append(TraceIssueRecord(timestamp: time, kind: kind, node: node, message: message)) }
    }

    /// Issues by kind (kinds with none are absent).
    var byKind: [TraceIssueKind: Int] {
        var result: [TraceIssueKind: Int] = [:]
        for kind in TraceIssueKind.allCases where counts[Int(kind.rawValue)] > 0 { result[kind] = counts[Int(kind.rawValue)] }
        return result
    }
}
