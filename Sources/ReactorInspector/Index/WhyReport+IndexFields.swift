import ReactorTraceFormat

/// What the two explanations sections (``KeptExplanations``, ``AllExplanations``) write
/// alike: a report's counts and stops by cause, and each listed run's event and stop cause.
extension IndexFieldWriter {
    /// First runs, reruns, stops, then the stops by cause label (in label order), each
    /// label named in `strings`.
    mutating func putWhyCounts(firstRuns: Int, reruns: Int, stops: Int, stopsByLabel: [String: Int],
                               strings: inout IndexStringTable) {
        put(firstRuns); put(reruns); put(stops)
        put(stopsByLabel.count)
        for (label, count) in stopsByLabel.sorted(by: { $0.key < $1.key }) {
            put(strings.position(of: label)); put(count)
        }
    }

    /// A listed run's event and the cause that stopped it (0: none).
    mutating func putWhyEvent(_ event: WhyEntry.Event, stopCause: InvalidationCause?) {
        put(WhyEntry.Event.indexOrder.firstIndex(of: event)!)
        put(stopCause.map { UInt64($0.rawValue) + 1 } ?? 0)
    }
}

extension IndexFieldReader {
    /// A string table as ``IndexStringTable/put(into:)`` writes it, its count bounded by the bytes left.
    mutating func stringTable() throws(TraceIndexError) -> [String] {
        let count = try elements(eachAtLeast: 1)
        var strings: [String] = []
        strings.reserveCapacity(count)
        for _ in 0..<count { strings.append(try string()) }
        return strings
    }

    /// A string named by its position in `table`.
    mutating func string(in table: [String]) throws(TraceIndexError) -> String {
        guard !table.isEmpty else { throw .damaged("a string not in its table") }
        return table[try count(atMost: UInt64(table.count - 1))]
    }

    /// The counts ``IndexFieldWriter/putWhyCounts(firstRuns:reruns:stops:stopsByLabel:strings:)`` wrote, into `report`.
    mutating func whyCounts(into report: inout WhyReport, strings: [String]) throws(TraceIndexError) {
        report.firstRuns = try int(); report.reruns = try int(); report.stops = try int()
        let causeCount = try elements(eachAtLeast: 2)
        for _ in 0..<causeCount {
            let label = try string(in: strings)
            guard report.stopsByCause.updateValue(try int(), forKey: label) == nil else {
                throw .damaged("a stop cause counted twice")
            }
        }
    }

    /// The event and stop cause ``IndexFieldWriter/putWhyEvent(_:stopCause:)`` wrote.
    mutating func whyEvent() throws(TraceIndexError) -> (event: WhyEntry.Event, stopCause: InvalidationCause?) {
        let event = WhyEntry.Event.indexOrder[try count(atMost: UInt64(WhyEntry.Event.indexOrder.count - 1))]
        let causeCode = try count(atMost: 256)
        guard causeCode > 0 else { return (event, nil) }
        guard let cause = InvalidationCause(rawValue: UInt8(causeCode - 1)) else { throw .damaged("an unknown kind") }
        return (event, cause)
    }
}

extension WhyEntry.Event {
    /// The events in the order the explanations sections number them.
    static let indexOrder: [WhyEntry.Event] = [.firstRun, .rerun, .stopped]
}
