extension WhyReport: Encodable {
    private enum Keys: String, CodingKey {
        case target, kind, site, instances, runs, firstRuns, reruns, stops, stopsByCause, patterns, entries, omittedEntries,
             ungroupedEntries, issues
    }

    private struct IssueJSON: Encodable {
        let timestampNanoseconds: UInt64
        let kind: String
        let node: UInt64
        let message: String
    }

    private struct PatternJSON: Encodable {
        let count: Int
        let chain: [String]
    }

    private struct EntryJSON: Encodable {
        let timestampNanoseconds: UInt64
        let node: UInt64
        let event: String
        let stopCause: String?
        /// The call site of the chain's root action, when the trace recorded it.
        let actionSite: String?
        let chain: [String]
    }

    /// Encodes the report with chains as arrays of step descriptions, root first.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(target, forKey: .target)
        try container.encodeIfPresent(kind?.label, forKey: .kind)
        try container.encodeIfPresent(site, forKey: .site)
        try container.encode(instances, forKey: .instances)
        try container.encode(firstRuns + reruns, forKey: .runs)
        try container.encode(firstRuns, forKey: .firstRuns)
        try container.encode(reruns, forKey: .reruns)
        try container.encode(stops, forKey: .stops)
        try container.encode(stopsByCause, forKey: .stopsByCause)
        try container.encode(patterns.map { PatternJSON(count: $0.count, chain: $0.chain.map(\.description)) },
                             forKey: .patterns)
        try container.encode(entries.map {
            EntryJSON(timestampNanoseconds: $0.timestamp, node: $0.node, event: $0.event.rawValue,
                      stopCause: $0.stopCause?.label,
                      actionSite: $0.chain.lazy.compactMap { step -> String? in
                          if case let .action(_, _, site) = step { return site }
                          return nil
                      }.first,
                      chain: $0.chain.map(\.description))
        }, forKey: .entries)
        try container.encode(omittedEntries, forKey: .omittedEntries)
        try container.encode(ungroupedEntries, forKey: .ungroupedEntries)
        try container.encode(issues.map {
            IssueJSON(timestampNanoseconds: $0.timestamp, kind: $0.kind.label, node: $0.node, message: $0.message)
        }, forKey: .issues)
    }
}
