import ReactorTraceFormat

extension TraceIndexSession {
    /// The fewest chunks a trace has for `why` to read a computation's chunks alone: below,
    /// the pass that explains every computation (and leaves them all) is about as quick.
    static let fewestChunksForWhyAlone = 16

    /// `why target` from the chunks that mention the computations it names (``IndexedMentions``),
    /// read in stretches, each alone from its light points (``IndexedLightPoints``) with a few
    /// chunks before it: the same report as a pass, or nil when the chunks read cannot tell it.
    ///
    /// A stretch's chains that continue one made before it have the builder's unknown root
    /// (``CauseTracker/unknownBefore``): the stretch is read again from further back (2, 8,
    /// 32, then 128 chunks before it), and past that, or when that would read more than a
    /// 16th of the trace's chunks in all (`budget`, when given), the answer is nil (the caller
    /// makes its pass); a stretch that reaches the trace's start is read as a pass reads it.
    /// Also nil: a trace with values (a change's old value is what the chunks before said),
    /// an index without those sections, and a computation that took the name after its
    /// first creation or naming event.
    func explanationFromChunks(of target: String, limit: Int, model: TraceModel, index: TraceIndex,
                               budget: Int? = nil) -> WhyReport? {
        guard !model.hasValues, let mentions = index.mentions, let section = index.lightPoints,
              let positions = index.positions else { return nil }
        let matching = WhyReport.computations(matching: target, in: model.nodes)
        let chunkCount = index.batches.count
        guard !matching.isEmpty, budget != nil || chunkCount >= Self.fewestChunksForWhyAlone else { return nil }
        func drop(_ reason: String) -> WhyReport? {
            self.index = nil
            noteAndRebuild(reason)
            return nil
        }
        var described: [UInt64: (name: String, kind: TraceNodeKind)] = [:]
        for node in model.nodes { described[node.id] = (node.name, node.kind) }
        let firstNamed: [UInt64: Int]
        let points: (chunks: [IndexedLightPoints.Chunk], creations: [IndexedLightPoints.Creation])
        var wanted = Set<Int>()
        do throws(TraceIndexError) {
            guard let named = try Self.explainedNodes(of: target, positions: positions, chunkCount: chunkCount,
                                                      finalName: { described[$0]?.name }),
                  !named.isEmpty else { return nil }
            firstNamed = named
            for node in try mentions.nodes(batchCount: chunkCount, keeping: { id, _ in firstNamed[id] != nil })
            where firstNamed[node.id] != nil {
                for range in node.chunks { wanted.formUnion(range) }
            }
            points = try section.decode(batches: index.batches, actionCount: model.actions.count)
        } catch {
            return drop(error.description)
        }
        let chunks = wanted.sorted()
        var budget = budget ?? max(Self.fewestChunksForWhyAlone / 4, chunkCount / 16)
        guard chunks.count <= budget else { return nil }
        var records: [TraceModelBuilder.AloneRecord] = []
        var next = 0
        while next < chunks.count {
            let first = chunks[next]
            var lookback = 2
            while true {
                // A stretch: from `lookback` chunks before its first wanted chunk to the last wanted one
                // reached with no longer gap than that.
                var last = next
                while last + 1 < chunks.count, chunks[last + 1] <= chunks[last] + lookback + 1 { last += 1 }
                let start = max(0, first - lookback)
                budget -= chunks[last] - start + 1
                guard budget >= 0 else { return nil }
                switch readStretch(start...chunks[last], countingFrom: first, target: target, limit: limit,
                                   firstNamed: firstNamed, points: points, model: model, index: index,
                                   describe: { described[$0] }) {
                case .mismatch(let reason):
                    return drop(reason)
                case .records(let read):
                    records += read
                    next = last + 1
                case .unknownBefore where start > 0:
                    guard lookback < 64 else { return nil }
                    lookback *= 4
                    continue
                case .unknownBefore:
                    return nil
                }
                break
            }
        }
        var report = WhyReport(target: target)
        report.describe(matching)
        var patterns: [[TraceModelBuilder.AloneShapeStep]: (count: Int, example: [WhyStep])] = [:]
        var stopsByCause: [InvalidationCause: Int] = [:]
        for record in records {
            switch record.event {
            case .firstRun: report.firstRuns += 1
            case .rerun: report.reruns += 1
            case .stopped:
                report.stops += 1
                if let cause = record.stopCause { stopsByCause[cause, default: 0] += 1 }
            }
            if report.entries.count < limit {
                report.entries.append(WhyEntry(timestamp: record.timestamp, node: record.node, event: record.event,
                                               chain: record.chain, stopCause: record.stopCause))
            } else {
                report.omittedEntries += 1
            }
            if let existing = patterns[record.shape] {
                patterns[record.shape] = (existing.count + 1, existing.example)
            } else if patterns.count < WhyCollector.maximumPatterns {
                patterns[record.shape] = (1, record.chain)
            } else {
                report.ungroupedEntries += 1
            }
        }
        for (cause, count) in stopsByCause { report.stopsByCause[cause.label] = count }
        report.patterns = WhyPattern.ordered(patterns.values.map {
            WhyPattern(chain: $0.example.map(\.withoutArguments), count: $0.count)
        })
        return report
    }

    /// The nodes a pass explaining `target` explains, by id, with the chunk they are explained
    /// from: those whose display name (``IndexedPositions/NameStep``; nil: `finalName`) was the
    /// target, or whose `#id` it is, at their first creation or naming event. Nil when a node
    /// took the name later (its runs are explained from an event the chunks do not locate).
    static func explainedNodes(of target: String, positions: IndexedPositions, chunkCount: Int,
                               finalName: (UInt64) -> String?) throws(TraceIndexError) -> [UInt64: Int]? {
        var firstNamed: [UInt64: Int] = [:], renamedInto = false
        _ = try positions.nodes(batchCount: chunkCount) { id, names in
            let matches = names.map { ($0.name ?? finalName(id)) == target || "#\(id)" == target }
            if matches.first == true {
                firstNamed[id] = names[0].chunk
            } else if matches.contains(true) {
                renamedInto = true
            }
            return false
        }
        return renamedInto ? nil : firstNamed
    }

    /// What reading a stretch of chunks for `why` gave.
    enum StretchRead: Equatable {
        /// The runs and stops of the explained computations from the chunk counted from on.
        case records([TraceModelBuilder.AloneRecord])
        /// One of their chains began before the stretch.
        case unknownBefore
        /// A chunk disagrees with the index.
        case mismatch(String)
    }

    /// Reads the chunks `stretch` in order by one builder explaining `target`, each thread's first
    /// one from its light point (from the trace's start, a plain pass's state), and returns the
    /// runs and stops recorded from chunk `countingFrom` on.
    func readStretch(_ stretch: ClosedRange<Int>, countingFrom counted: Int, target: String, limit: Int,
                             firstNamed: [UInt64: Int],
                             points: (chunks: [IndexedLightPoints.Chunk], creations: [IndexedLightPoints.Creation]),
                             model: TraceModel, index: TraceIndex,
                             describe: (UInt64) -> (name: String, kind: TraceNodeKind)?) -> StretchRead {
        let builder = TraceModelBuilder(options: TraceModelOptions(explaining: [target], whyEntryLimit: limit))
        let start = stretch.lowerBound
        if start > 0 {
            guard builder.startReadingLightPoints(actions: model.actions) else {
                return .mismatch(TraceIndexError.damaged("actions that are not a trace's").description)
            }
            // What the chunks before made of each node: a computed or not.
            for creation in points.creations where creation.chunk < start {
                builder.setComputed(creation.id, creation.computed)
            }
        }
        builder.explainAlone(Set(firstNamed.keys), named: firstNamed.compactMap { $0.value < start ? $0.key : nil })
        var contexts = ThreadContexts(points.chunks.lazy.map { ($0.thread, $0.fresh) })
        var restored = Set<UInt32>()
        var countedFrom = 0
        for position in stretch {
            let chunk = points.chunks[position]
            if start > 0, restored.insert(chunk.thread).inserted {
                guard builder.restoreThread(chunk.thread, frames: chunk.frames) else {
                    return .mismatch(TraceIndexError.damaged("a light point of an unknown action").description)
                }
            }
            let previous: TraceResumePoint?
            switch contexts.context(for: position, of: chunk.thread, readQuietly: { earlier, previous in
                readChunkAlone(earlier, of: points.chunks[earlier], continuing: previous, index: index, counted: false,
                               body: { _ in })
            }) {
            case let .success(context): previous = context
            case let .failure(failure): return .mismatch(failure.description)
            }
            if position == counted { countedFrom = builder.aloneRecordCount }
            guard let after = readChunkAlone(position, of: chunk, continuing: previous, index: index, counted: true,
                                             body: { builder.consume($0) })
            else { return .mismatch("does not match the trace") }
            contexts.read(position, of: chunk.thread, leaving: after)
        }
        guard let records = builder.aloneRecords(from: countedFrom, describe: describe) else { return .unknownBefore }
        return .records(records)
    }
}
