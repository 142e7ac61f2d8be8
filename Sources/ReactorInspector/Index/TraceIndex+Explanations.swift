import ReactorTraceFormat

/// The explanations section (``KeptExplanations``): after the plain model, a
/// flag, then the section's bytes. The section: how many explanations, then per
/// explanation its target, how many runs its pass listed one by one, and its own
/// bytes: a string table, the counts, the runs listed one by one and the chains
/// grouped by shape, every step naming its strings by position.
extension KeptExplanations {
    static func encode(_ report: WhyReport) -> [UInt8] {
        var strings = IndexStringTable()
        func string(_ text: String) -> Int { strings.position(of: text) }
        var body = IndexFieldWriter()
        func put(_ chain: [WhyStep]) {
            body.put(chain.count)
            for step in chain {
                switch step {
                case let .action(name, arguments, site):
                    body.put(0); body.put(string(name)); body.put(string(arguments))
                    body.put(site != nil)
                    if let site { body.put(string(site)) }
                case let .changed(name, kind, values):
                    body.put(1); body.put(string(name)); body.put(UInt64(kind.rawValue))
                    body.put(values != nil)
                    if let values {
                        body.put(values.previous != nil)
                        if let previous = values.previous { body.put(string(previous)) }
                        body.put(string(values.value))
                    }
                case let .invalidated(name, kind, cause):
                    body.put(2); body.put(string(name)); body.put(UInt64(kind.rawValue)); body.put(UInt64(cause.rawValue))
                case let .ran(name, kind, firstRun):
                    body.put(3); body.put(string(name)); body.put(UInt64(kind.rawValue)); body.put(firstRun)
                case .unknown:
                    body.put(4)
                case let .elided(count):
                    body.put(5); body.put(count)
                }
            }
        }
        body.putWhyCounts(firstRuns: report.firstRuns, reruns: report.reruns, stops: report.stops,
                          stopsByLabel: report.stopsByCause, strings: &strings)
        body.put(report.entries.count)
        for entry in report.entries {
            body.put(entry.timestamp); body.put(entry.node)
            body.putWhyEvent(entry.event, stopCause: entry.stopCause)
            put(entry.chain)
        }
        body.put(report.omittedEntries)
        body.put(report.patterns.count)
        for pattern in report.patterns {
            body.put(pattern.count)
            put(pattern.chain)
        }
        body.put(report.ungroupedEntries)
        var fields = IndexFieldWriter()
        strings.put(into: &fields)
        fields.append(body.bytes)
        return fields.bytes
    }

    /// One explanation's bytes, every count bounded by the bytes left and every string position by the table.
    static func decode(_ bytes: [UInt8], target: String) throws(TraceIndexError) -> WhyReport {
        var fields = IndexFieldReader(bytes)
        let strings = try fields.stringTable()
        func string() throws(TraceIndexError) -> String { try fields.string(in: strings) }
        func chain() throws(TraceIndexError) -> [WhyStep] {
            let count = try fields.elements(eachAtLeast: 1)
            var steps: [WhyStep] = []
            steps.reserveCapacity(count)
            for _ in 0..<count {
                switch try fields.count(atMost: 5) {
                case 0:
                    let name = try string(), arguments = try string()
                    let site = try fields.bool() ? try string() : nil
                    steps.append(.action(name: name, arguments: arguments, site: site))
                case 1:
                    let name = try string(), kind = try fields.kind(TraceNodeKind.self)
                    var values: WhyValueChange?
                    if try fields.bool() {
                        let previous = try fields.bool() ? try string() : nil
                        values = WhyValueChange(previous: previous, value: try string())
                    }
                    steps.append(.changed(name: name, kind: kind, values: values))
                case 2:
                    let name = try string(), kind = try fields.kind(TraceNodeKind.self)
                    steps.append(.invalidated(name: name, kind: kind, cause: try fields.kind(InvalidationCause.self)))
                case 3:
                    let name = try string(), kind = try fields.kind(TraceNodeKind.self)
                    steps.append(.ran(name: name, kind: kind, firstRun: try fields.bool()))
                case 4:
                    steps.append(.unknown)
                default:
                    steps.append(.elided(count: try fields.int()))
                }
            }
            return steps
        }
        var report = WhyReport(target: target)
        try fields.whyCounts(into: &report, strings: strings)
        let entryCount = try fields.elements(eachAtLeast: 5)
        report.entries.reserveCapacity(entryCount)
        for _ in 0..<entryCount {
            let timestamp = try fields.next(), node = try fields.next()
            let (event, stopCause) = try fields.whyEvent()
            report.entries.append(WhyEntry(timestamp: timestamp, node: node, event: event, chain: try chain(),
                                           stopCause: stopCause))
        }
        report.omittedEntries = try fields.int()
        let patternCount = try fields.elements(eachAtLeast: 2)
        report.patterns.reserveCapacity(patternCount)
        for _ in 0..<patternCount {
            let count = try fields.int()
            report.patterns.append(WhyPattern(chain: try chain(), count: count))
        }
        report.ungroupedEntries = try fields.int()
        guard fields.readableBytes == 0 else { throw .damaged("bytes after an explanation") }
        return report
    }
}
