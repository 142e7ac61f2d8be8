import ReactorTraceFormat

/// The whole trace's plain model (``TraceModelOptions`` as created, the
/// model `hot`, `summary` and `graph` read) as an index section: every field,
/// so that the model read back is the one the pass built.
extension TraceModel {
    /// Whether these options build the model an index keeps: the default ones
    /// (no moment, no values, no causes, no explanation, the default issue limit).
    static func isIndexed(_ options: TraceModelOptions) -> Bool {
        options.snapshotAt == nil && options.explaining.isEmpty && options.until == nil && options.untilAction == nil
            && !options.tracksValues && options.valueHistoryOf == nil && !options.tracksCauses
            && options.lookahead == nil && options.issueLimit == TraceModelOptions().issueLimit
    }

    /// Whether the model holds only what a model of ``isIndexed(_:)`` options holds.
    var isPlain: Bool { snapshot == nil && explanations.isEmpty && valueHistory.isEmpty }

    func encode(to fields: inout IndexFieldWriter) {
        fields.put(nodes.count)
        for node in nodes { node.encode(to: &fields) }
        fields.put(edges.count)
        for edge in edges {
            fields.put(edge.computation); fields.put(edge.dependency); fields.put(edge.depends)
            fields.put(edge.invalidations); fields.put(edge.firstSeen); fields.put(edge.lastSeen)
        }
        fields.put(finalEdges.count)
        for key in finalEdges.sorted() { fields.put(key.computation); fields.put(key.dependency) }
        fields.put(actions.count)
        for action in actions { action.encode(to: &fields) }
        fields.put(eventCount); fields.put(skippedEvents); fields.put(clockEvents)
        fields.put(eventsByKind.count)
        for (kind, count) in eventsByKind.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            fields.put(UInt64(kind.rawValue)); fields.put(count)
        }
        fields.put(firstTimestamp); fields.put(lastTimestamp); fields.put(threadCount)
        fields.put(threadIndexes.count)
        for thread in threadIndexes { fields.put(UInt64(thread)) }
        fields.put(flushes.count); fields.put(flushes.totalNanoseconds); fields.put(flushes.maxNanoseconds)
        fields.put(issueCounts.count)
        for (kind, count) in issueCounts.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            fields.put(UInt64(kind.rawValue)); fields.put(count)
        }
        fields.put(issues.count)
        for issue in issues {
            fields.put(issue.timestamp); fields.put(UInt64(issue.kind.rawValue)); fields.put(issue.node)
            fields.put(issue.message)
        }
        fields.put(unfinishedRuns); fields.put(latestTimestampRead); fields.put(hasValues)
        fields.put(pendingReruns.count)
        for node in pendingReruns.sorted() { fields.put(node) }
        fields.put(unfinishedFlushes)
    }

    static func decode(from fields: inout IndexFieldReader) throws(TraceIndexError) -> TraceModel {
        // Each element takes at least as many bytes as it has fields: counts cannot outgrow the file.
        var nodes: [TraceNode] = []
        for _ in 0..<(try fields.elements(eachAtLeast: TraceNode.leastEncodedBytes)) {
            nodes.append(try TraceNode.decode(from: &fields))
        }
        var edges: [TraceEdge] = []
        for _ in 0..<(try fields.elements(eachAtLeast: 6)) {
            edges.append(TraceEdge(computation: try fields.next(), dependency: try fields.next(), depends: try fields.int(),
                                   invalidations: try fields.int(), firstSeen: try fields.next(),
                                   lastSeen: try fields.next()))
        }
        var finalEdges = Set<TraceEdgeKey>()
        for _ in 0..<(try fields.elements(eachAtLeast: 2)) {
            finalEdges.insert(TraceEdgeKey(computation: try fields.next(), dependency: try fields.next()))
        }
        var actions: [ActionStats] = []
        for _ in 0..<(try fields.elements(eachAtLeast: ActionStats.leastEncodedBytes)) {
            actions.append(try ActionStats.decode(from: &fields))
        }
        let eventCount = try fields.int(), skipped = try fields.int(), clocks = try fields.int()
        var byKind: [TraceEventKind: Int] = [:]
        for _ in 0..<(try fields.elements(eachAtLeast: 2)) { byKind[try fields.kind(TraceEventKind.self)] = try fields.int() }
        let first = try fields.next(), last = try fields.next(), threads = try fields.int()
        var threadIndexes: [UInt32] = []
        for _ in 0..<(try fields.elements(eachAtLeast: 1)) {
            threadIndexes.append(UInt32(try fields.count(atMost: UInt64(UInt32.max))))
        }
        var flushes = FlushStats()
        flushes.count = try fields.int()
        flushes.totalNanoseconds = try fields.next()
        flushes.maxNanoseconds = try fields.next()
        var issueCounts: [TraceIssueKind: Int] = [:]
        for _ in 0..<(try fields.elements(eachAtLeast: 2)) {
            issueCounts[try fields.kind(TraceIssueKind.self)] = try fields.int()
        }
        var issues: [TraceIssueRecord] = []
        for _ in 0..<(try fields.elements(eachAtLeast: 4)) {
            issues.append(TraceIssueRecord(timestamp: try fields.next(), kind: try fields.kind(TraceIssueKind.self),
                                           node: try fields.next(), message: try fields.string()))
        }
        let unfinished = try fields.int()
        var model = TraceModel(nodes: nodes, edges: edges, finalEdges: finalEdges, snapshot: nil, actions: actions,
                               eventCount: eventCount, eventsByKind: byKind, firstTimestamp: first,
                               lastTimestamp: last, threadCount: threads, flushes: flushes, issueCounts: issueCounts,
                               issues: issues, explanations: [:], unfinishedRuns: unfinished)
        model.skippedEvents = skipped
        model.clockEvents = clocks
        model.threadIndexes = threadIndexes
        model.latestTimestampRead = try fields.next()
        model.hasValues = try fields.bool()
        for _ in 0..<(try fields.elements(eachAtLeast: 1)) { model.pendingReruns.insert(try fields.next()) }
        model.unfinishedFlushes = try fields.int()
        return model
    }
}

extension TraceNode {
    /// Each field takes at least one byte.
    static let leastEncodedBytes = 20

    func encode(to fields: inout IndexFieldWriter) {
        fields.put(id); fields.put(UInt64(kind.rawValue)); fields.put(givenName)
        fields.put(owner); fields.put(parent)
        fields.put(children.count)
        for child in children { fields.put(child) }
        fields.put(optional: createdAt); fields.put(optional: stoppedAt)
        fields.put(changes)
        runs.encode(to: &fields)
        for count in [invalidations.byDependency, invalidations.byParent, invalidations.explicit, invalidations.byStop,
                      invalidations.byRunaway, invalidations.byError] { fields.put(count) }
        fields.put(optional: site); fields.put(optional: value); fields.put(optional: valueTimestamp)
    }

    static func decode(from fields: inout IndexFieldReader) throws(TraceIndexError) -> TraceNode {
        let id = try fields.next(), kind = try fields.kind(TraceNodeKind.self), name = try fields.string()
        var node = TraceNode(id: id, kind: kind, givenName: name, owner: try fields.next(), parent: try fields.next())
        for _ in 0..<(try fields.elements(eachAtLeast: 1)) { node.children.append(try fields.next()) }
        node.createdAt = try fields.optional()
        node.stoppedAt = try fields.optional()
        node.changes = try fields.int()
        node.runs = try RunStats.decode(from: &fields)
        node.invalidations.byDependency = try fields.int()
        node.invalidations.byParent = try fields.int()
        node.invalidations.explicit = try fields.int()
        node.invalidations.byStop = try fields.int()
        node.invalidations.byRunaway = try fields.int()
        node.invalidations.byError = try fields.int()
        node.site = try fields.optionalString()
        node.value = try fields.optionalString()
        node.valueTimestamp = try fields.optional()
        return node
    }
}

extension ActionStats {
    /// Each field takes at least one byte.
    static let leastEncodedBytes = 14

    func encode(to fields: inout IndexFieldWriter) {
        fields.put(store); fields.put(storeName); fields.put(name)
        fields.put(count); fields.put(totalNanoseconds); durations.encode(to: &fields)
        fields.put(runsCaused); fields.put(rerunsCaused); fields.put(firstArguments)
        fields.put(runsCausedByComputation.count)
        for (node, runs) in runsCausedByComputation.sorted(by: { $0.key < $1.key }) {
            fields.put(node); fields.put(runs)
        }
    }

    static func decode(from fields: inout IndexFieldReader) throws(TraceIndexError) -> ActionStats {
        let store = try fields.next(), storeName = try fields.string(), name = try fields.string()
        let count = try fields.int(), total = try fields.next(), durations = try DurationHistogram.decode(from: &fields)
        let runsCaused = try fields.int(), rerunsCaused = try fields.int(), arguments = try fields.string()
        var action = ActionStats(store: store, storeName: storeName, name: name, firstArguments: arguments)
        action.count = count
        action.totalNanoseconds = total
        action.durations = durations
        action.runsCaused = runsCaused
        action.rerunsCaused = rerunsCaused
        for _ in 0..<(try fields.elements(eachAtLeast: 2)) {
            action.runsCausedByComputation[try fields.next()] = try fields.int()
        }
        return action
    }
}

extension RunStats {
    func encode(to fields: inout IndexFieldWriter) {
        fields.put(runs); fields.put(firstRuns); fields.put(totalNanoseconds); fields.put(selfNanoseconds)
        durations.encode(to: &fields)
        fields.put(rerunNanoseconds); fields.put(maxRerunNanoseconds)
    }

    static func decode(from fields: inout IndexFieldReader) throws(TraceIndexError) -> RunStats {
        var stats = RunStats()
        stats.runs = try fields.int()
        stats.firstRuns = try fields.count(atMost: UInt64(stats.runs))
        stats.totalNanoseconds = try fields.next()
        stats.selfNanoseconds = try fields.next()
        stats.durations = try DurationHistogram.decode(from: &fields)
        stats.rerunNanoseconds = try fields.next()
        stats.maxRerunNanoseconds = try fields.next()
        return stats
    }
}

extension DurationHistogram {
    /// Sparse: the buckets' length, then each bucket in use as (gap from the previous one, count).
    func encode(to fields: inout IndexFieldWriter) {
        fields.put(counts.count)
        fields.put(counts.lazy.filter { $0 > 0 }.count)
        var previous = -1
        for (bucket, bucketCount) in counts.enumerated() where bucketCount > 0 {
            fields.put(bucket - previous - 1)
            fields.put(UInt64(bucketCount))
            previous = bucket
        }
        fields.put(count); fields.put(sum); fields.put(minimum); fields.put(maximum)
    }

    static func decode(from fields: inout IndexFieldReader) throws(TraceIndexError) -> DurationHistogram {
        let length = try fields.count(atMost: UInt64(bucket(of: .max) + 1))
        var counts = [UInt32](repeating: 0, count: length)
        var next = 0
        for _ in 0..<(try fields.count(atMost: UInt64(length))) {
            let bucket = next + (try fields.count(atMost: UInt64(length)))
            guard bucket < length else { throw .damaged("a histogram bucket out of range") }
            counts[bucket] = UInt32(try fields.count(atMost: UInt64(UInt32.max)))
            next = bucket + 1
        }
        let count = try fields.int(), sum = try fields.next(), minimum = try fields.next(), maximum = try fields.next()
        guard let histogram = DurationHistogram(counts: counts, count: count, sum: sum, minimum: minimum,
                                                maximum: maximum) else {
            throw .damaged("a histogram that does not add up")
        }
        return histogram
    }
}
