import ReactorTraceFormat

/// The index's profile section (``IndexedProfile``): after the model, a flag,
/// then the limits, the computations, actions, issues, flushes, rerun
/// histogram, timeline spans (labels once, in a table), waste entries and the
/// action timeline, as varints and strings (docs/INSPECT.md, "The index").
/// Decoding checks every count against the bytes left: any byte sequence
/// gives a section or an error.
extension IndexedProfile {
    static func encode(figures: ProfileFigures, actionSteps: [ActionTimeline.Step], omittedActions: Int,
                       actionsHaveValues: Bool, limits: Limits, to fields: inout IndexFieldWriter) {
        fields.put(limits.timelineSpans); fields.put(limits.actions); fields.put(limits.changesPerAction)
        fields.put(figures.computations.count)
        for computation in figures.computations {
            fields.put(computation.name); fields.put(computation.kind); fields.put(computation.instances)
            computation.stats.encode(to: &fields)
            for chain in [computation.slowestRerunCause, computation.latestRerunCause, computation.dominantRerunCause] {
                fields.put(strings: chain)
            }
            fields.put(computation.dominantRerunCount); fields.put(optional: computation.site)
        }
        fields.put(figures.actions.count)
        for action in figures.actions {
            fields.put(action.qualifiedName); fields.put(action.store); fields.put(action.name)
            fields.put(action.invocations); fields.put(action.rerunsCaused); fields.put(action.maxRerunsPerInvocation)
            fields.put(action.worstInvocationArguments); fields.put(strings: action.worstInvocationReruns)
            fields.put(action.worstInvocationOrdinal); fields.put(action.totalNanoseconds); fields.put(action.maxNanoseconds)
        }
        fields.put(figures.issues.count)
        for issue in figures.issues {
            fields.put(UInt64(issue.kind.rawValue)); fields.put(issue.count); fields.put(issue.firstMessage)
            fields.put(issue.firstNode)
        }
        let flushes = figures.flushes
        fields.put(flushes.count); fields.put(flushes.totalNanoseconds); fields.put(flushes.maxNanoseconds)
        fields.put(flushes.slowestStartNanoseconds)
        fields.put(flushes.slowestFlushReruns.count)
        for rerun in flushes.slowestFlushReruns {
            fields.put(rerun.name); fields.put(rerun.reruns); fields.put(rerun.nanoseconds)
        }
        // Sparse, as the model's histograms: (gap from the previous bucket in use, count).
        let buckets = figures.rerunHistogram.buckets
        fields.put(buckets.lazy.filter { $0 > 0 }.count)
        var previous = -1
        for (bucket, count) in buckets.enumerated() where count > 0 {
            fields.put(bucket - previous - 1); fields.put(count)
            previous = bucket
        }
        var labels: [String] = [], labelPositions: [String: Int] = [:]
        for span in figures.timeline where labelPositions[span.label] == nil {
            labelPositions[span.label] = labels.count
            labels.append(span.label)
        }
        fields.put(strings: labels)
        fields.put(figures.timeline.count)
        var start: UInt64 = 0
        for span in figures.timeline {
            fields.put(span.kind == .flush ? 0 : 1); fields.put(UInt64(span.thread))
            fields.put(Varint.zigzagDelta(span.start, from: start)); fields.put(span.end &- span.start)
            fields.put(labelPositions[span.label]!); fields.put(span.reruns)
            start = span.start
        }
        fields.put(figures.droppedTimelineSpans)
        let waste = figures.waste
        fields.put(waste.reruns); fields.put(waste.unneededReruns); fields.put(waste.undecidedReruns)
        fields.put(waste.hasValues)
        fields.put(waste.entries.count)
        for entry in waste.entries {
            fields.put(entry.name); fields.put(entry.kind); fields.put(entry.reruns); fields.put(entry.unneededReruns)
            fields.put(entry.unneededNanoseconds); fields.put(entry.undecidedReruns); fields.put(entry.equalResults)
            fields.put(entry.equalResultNanoseconds)
            fields.put(entry.writes.count)
            for write in entry.writes {
                fields.put(write.node); fields.put(optional: write.kind); fields.put(optional: write.action)
                fields.put(optional: write.site); fields.put(write.reruns)
            }
            fields.put(entry.fix)
        }
        fields.put(actionsHaveValues); fields.put(omittedActions)
        fields.put(actionSteps.count)
        for step in actionSteps {
            fields.put(step.ordinal); fields.put(step.name); fields.put(step.arguments); fields.put(step.began)
            fields.put(Varint.zigzagDelta(step.ended, from: step.began))
            fields.put(step.changes.count)
            for change in step.changes {
                fields.put(change.name); fields.put(optional: change.before); fields.put(change.after)
            }
            fields.put(step.omittedChanges)
            fields.put(step.rerunsSoFar.count)
            for rerun in step.rerunsSoFar { fields.put(rerun.name); fields.put(rerun.reruns) }
        }
    }

    /// Decodes a section written by ``encode(figures:actionSteps:omittedActions:actionsHaveValues:limits:to:)``,
    /// whose figures' model is `model` (the index's).
    static func decode(from fields: inout IndexFieldReader, model: TraceModel) throws(TraceIndexError) -> IndexedProfile {
        let limits = Limits(timelineSpans: try fields.int(), actions: try fields.int(), changesPerAction: try fields.int())
        var computations: [ComputationProfile] = []
        for _ in 0..<(try fields.elements(eachAtLeast: 30)) {
            let name = try fields.string(), kind = try fields.string(), instances = try fields.int()
            var computation = ComputationProfile(name: name, kind: kind, instances: instances,
                                                 stats: try RunStats.decode(from: &fields))
            computation.slowestRerunCause = try fields.strings()
            computation.latestRerunCause = try fields.strings()
            computation.dominantRerunCause = try fields.strings()
            computation.dominantRerunCount = try fields.int()
            computation.site = try fields.optionalString()
            computations.append(computation)
        }
        var actions: [ActionProfile] = []
        for _ in 0..<(try fields.elements(eachAtLeast: 11)) {
            let qualified = try fields.string(), store = try fields.string(), name = try fields.string()
            let invocations = try fields.int(), caused = try fields.int(), worst = try fields.int()
            let arguments = try fields.string(), reruns = try fields.strings(), ordinal = try fields.int()
            actions.append(ActionProfile(qualifiedName: qualified, store: store, name: name, invocations: invocations,
                                         rerunsCaused: caused, maxRerunsPerInvocation: worst,
                                         worstInvocationArguments: arguments, worstInvocationReruns: reruns,
                                         worstInvocationOrdinal: ordinal, totalNanoseconds: try fields.next(),
                                         maxNanoseconds: try fields.next()))
        }
        var issues: [IssueProfile] = []
        for _ in 0..<(try fields.elements(eachAtLeast: 4)) {
            issues.append(IssueProfile(kind: try fields.kind(TraceIssueKind.self), count: try fields.int(),
                                       firstMessage: try fields.string(), firstNode: try fields.string()))
        }
        var flushes = FlushProfile(count: try fields.int(), totalNanoseconds: try fields.next(),
                                   maxNanoseconds: try fields.next(), slowestStartNanoseconds: try fields.next())
        for _ in 0..<(try fields.count(atMost: 5)) {
            flushes.slowestFlushReruns.append((name: try fields.string(), reruns: try fields.int(),
                                               nanoseconds: try fields.next()))
        }
        var buckets = [Int](repeating: 0, count: 64)
        var nextBucket = 0
        for _ in 0..<(try fields.count(atMost: 64)) {
            let bucket = nextBucket + (try fields.count(atMost: 63))
            guard bucket < 64 else { throw .damaged("a histogram bucket out of range") }
            buckets[bucket] = try fields.int()
            nextBucket = bucket + 1
        }
        guard let histogram = RerunHistogram(buckets: buckets) else { throw .damaged("a histogram that does not add up") }
        let labels = try fields.strings()
        var timeline: [TimelineSpan] = []
        var start: UInt64 = 0
        for _ in 0..<(try fields.elements(eachAtLeast: 6)) {
            let kind: TimelineSpan.Kind = try fields.count(atMost: 1) == 0 ? .flush : .action
            let thread = UInt32(try fields.count(atMost: UInt64(UInt32.max)))
            start = Varint.undoZigzagDelta(try fields.next(), from: start)
            let length = try fields.next()
            let label = try fields.count(atMost: UInt64(max(0, labels.count - 1)))
            guard label < labels.count else { throw .damaged("a timeline label out of range") }
            timeline.append(TimelineSpan(kind: kind, thread: thread, start: start, end: start.saturatingAdd(length),
                                         label: labels[label], reruns: try fields.int()))
        }
        let dropped = try fields.int()
        let wasteReruns = try fields.int(), unneeded = try fields.int(), undecided = try fields.int()
        let wasteHasValues = try fields.bool()
        var entries: [WasteEntry] = []
        for _ in 0..<(try fields.elements(eachAtLeast: 11)) {
            let name = try fields.string(), kind = try fields.string(), reruns = try fields.int()
            let unneededReruns = try fields.int(), unneededNanoseconds = try fields.next(), undecidedReruns = try fields.int()
            let equalResults = try fields.int(), equalNanoseconds = try fields.next()
            var writes: [WasteWrite] = []
            for _ in 0..<(try fields.elements(eachAtLeast: 5)) {
                writes.append(WasteWrite(node: try fields.string(), kind: try fields.optionalString(),
                                         action: try fields.optionalString(), site: try fields.optionalString(),
                                         reruns: try fields.int()))
            }
            entries.append(WasteEntry(name: name, kind: kind, reruns: reruns, unneededReruns: unneededReruns,
                                      unneededNanoseconds: unneededNanoseconds, undecidedReruns: undecidedReruns,
                                      equalResults: equalResults, equalResultNanoseconds: equalNanoseconds,
                                      writes: writes, fix: try fields.string()))
        }
        let waste = WasteReport(entries: entries, reruns: wasteReruns, unneededReruns: unneeded,
                                undecidedReruns: undecided, hasValues: wasteHasValues)
        let actionsHaveValues = try fields.bool(), omittedActions = try fields.int()
        var steps: [ActionTimeline.Step] = []
        for _ in 0..<(try fields.elements(eachAtLeast: 8)) {
            let ordinal = try fields.int(), name = try fields.string(), arguments = try fields.string()
            let began = try fields.next(), ended = Varint.undoZigzagDelta(try fields.next(), from: began)
            var step = ActionTimeline.Step(ordinal: ordinal, name: name, arguments: arguments, began: began,
                                           ended: ended)
            for _ in 0..<(try fields.elements(eachAtLeast: 3)) {
                step.changes.append((name: try fields.string(), before: try fields.optionalString(),
                                     after: try fields.string()))
            }
            step.omittedChanges = try fields.int()
            for _ in 0..<(try fields.elements(eachAtLeast: 2)) {
                step.rerunsSoFar.append((name: try fields.string(), reruns: try fields.int()))
            }
            steps.append(step)
        }
        let figures = ProfileFigures(model: model, computations: computations, actions: actions, issues: issues,
                                     flushes: flushes, rerunHistogram: histogram, timeline: timeline,
                                     droppedTimelineSpans: dropped, waste: waste)
        return IndexedProfile(figures: figures, actionSteps: steps, omittedActions: omittedActions,
                              actionsHaveValues: actionsHaveValues, limits: limits)
    }
}
