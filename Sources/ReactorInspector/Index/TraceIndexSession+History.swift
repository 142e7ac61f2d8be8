import ReactorTraceFormat

extension TraceIndexSession {
    /// `history name` of a trace with values from the index's positions (``IndexedPositions``):
    /// the whole trace's plain model, with the value history a pass of `builder` would build,
    /// read from only the chunks that hold the value, creation or naming events of the nodes
    /// that pass would follow, each read on from the latest snapshot before it (or from the
    /// previous such chunk, when that is nearer); nil (a pass) when those runs would cover more than
    /// half the chunks. A restored builder has the open runs and
    /// actions of every thread, so each value's root action is the pass's. Nil when the index
    /// cannot answer; when the positions, a snapshot or a chunk read disagree with the index,
    /// also drops the index (to be rebuilt) with one note, and `builder` is as new.
    func valueHistoryFromPositions(_ builder: TraceModelBuilder) -> (TraceModel, TraceReadReport)? {
        var rest = builder.options
        rest.valueHistoryOf = nil
        rest.tracksValues = false
        guard let target = builder.options.valueHistoryOf, TraceModel.isIndexed(rest),
              TraceModelBuilder.resumesHistory(builder.options), builder.consumedEvents == 0,
              let index, let kept = index.model, let section = index.positions, let moments = index.moments
        else { return nil }
        func dropIndex(_ reason: String) -> (TraceModel, TraceReadReport)? {
            builder.reset()
            builder.forgetHistory()
            self.index = nil
            noteAndRebuild(reason)
            return nil
        }
        var finalNames: [UInt64: String] = [:]
        for node in kept.model.nodes { finalNames[node.id] = node.name }
        let nodes: [IndexedPositions.Node]
        do throws(TraceIndexError) {
            // Only the lists of nodes that may be followed: a name that is the one asked, or unknown here.
            nodes = try section.nodes(batchCount: index.batches.count) { id, names in
                "#\(id)" == target || names.contains { step in (step.name ?? finalNames[id]).map { $0 == target } ?? true }
            }
        } catch {
            return dropIndex(error.description)
        }
        // Which nodes a pass follows (it meets an event that creates or names one as asked:
        // TraceModelBuilder.matchTarget), from which chunk, and the chunks that then matter.
        var entries: [(id: UInt64, chunk: Int)] = []
        var wanted = Set<Int>()
        for node in nodes {
            let byID = "#\(node.id)" == target
            var entry: Int?
            for step in node.names {
                guard let name = step.name ?? finalNames[node.id] else { return dropIndex("positions of an unknown node") }
                if byID || name == target {
                    entry = step.chunk
                    break
                }
            }
            guard let entry else { continue }
            entries.append((node.id, entry))
            wanted.insert(entry)
            for range in node.values where range.upperBound > entry {
                for chunk in max(entry, range.lowerBound)..<range.upperBound { wanted.insert(chunk) }
            }
        }
        // The whole trace's action names, as a pass's builder gives them at its end (``TraceModelBuilder/actionName(_:)``).
        let actionTable = kept.model.actions
        let actionName = kept.model.rootActionName
        if let section = index.lightPoints {
            // The chunks up to the last one where a pass starts following a node read on from snapshots
            // (a name event decides there, as the pass meets it); the rest, each alone from its light point.
            let lastEntry = entries.map(\.chunk).max() ?? -1
            let points: (chunks: [IndexedLightPoints.Chunk], creations: [IndexedLightPoints.Creation])
            do throws(TraceIndexError) {
                points = try section.decode(batches: index.batches, actionCount: actionTable.count)
            } catch {
                return dropIndex(error.description)
            }
            let before = batchesRead
            switch readFromSnapshots(wanted.filter { $0 <= lastEntry }, entries: entries, builder: builder,
                                     moments: moments, of: index) {
            case .tooMuch: return nil
            case .mismatch(let reason): return dropIndex(reason)
            case .read: break
            }
            let earlier = builder.recordedHistory(actionName: actionName)
            // A chunk read alone costs more than in a pass (a reader of its own): beyond a quarter of
            // a long trace, alone or with the chunks read again for causes in chunks not read, a pass
            // is cheaper (measured: a name on every chunk of 100 M events, 1.7× the pass).
            let alone = wanted.filter { $0 > lastEntry }.sorted()
            let allowance = index.batches.count < 64 ? index.batches.count : index.batches.count / 4
            guard alone.count <= allowance else {
                builder.reset()
                builder.forgetHistory()
                return nil
            }
            switch readFromLightPoints(alone, following: entries.map(\.id),
                                       points: points, options: builder.options, actions: actionTable,
                                       actionName: actionName, snapshots: builder, moments: moments,
                                       budget: allowance - (batchesRead - before), of: index) {
            case .mismatch(let reason):
                return dropIndex(reason)
            case .entries(let later):
                historyFromLightPoints = true
                var model = kept.model
                model.valueHistory = ValueHistoryTracker.ordered(earlier + later)
                builder.reset()
                return (model, index.readReport(path: tracePath))
            case .tooMuch:
                // Values whose causes lie in chunks not read, all through the trace: a pass costs less.
                builder.reset()
                builder.forgetHistory()
                return nil
            }
        }
        switch readFromSnapshots(wanted, entries: entries, builder: builder, moments: moments, of: index) {
        case .tooMuch: return nil
        case .mismatch(let reason): return dropIndex(reason)
        case .read: break
        }
        var model = kept.model
        model.valueHistory = builder.finish().valueHistory
        return (model, index.readReport(path: tracePath))
    }

    /// How reading chunks for a value history went.
    enum HistoryRead {
        case read
        /// Reading them from snapshots would cost more than a pass.
        case tooMuch
        /// A snapshot or chunk disagrees with the index.
        case mismatch(String)
    }

    /// Feeds `builder` the chunks `wanted`, in runs, each from its latest snapshot, unless
    /// reading on from the previous run's last chunk is no longer; the nodes of `entries`
    /// followed from their chunks on.
    func readFromSnapshots(_ wanted: Set<Int>, entries: [(id: UInt64, chunk: Int)], builder: TraceModelBuilder,
                           moments: IndexedMoments, of index: TraceIndex) -> HistoryRead {
        var runs: [(snapshot: IndexedMoments.Entry?, first: Int, last: Int)] = []
        var latest: IndexedMoments.Entry?
        var next = 0
        for chunk in wanted.sorted() {
            while next < moments.entries.count, moments.entries[next].batch <= chunk {
                latest = moments.entries[next]
                next += 1
            }
            let start = latest?.batch ?? 0
            if let current = runs.last, start <= current.last + 1 {
                runs[runs.count - 1].last = chunk
            } else {
                runs.append((latest, start, chunk))
            }
        }
        // Reading most of the trace in runs, each restoring a snapshot, costs more than one pass.
        guard runs.reduce(0, { $0 + $1.last + 1 - $1.first }) <= index.batches.count / 2 else { return .tooMuch }
        for run in runs {
            let point: TraceResumePoint?
            do throws(TraceIndexError) {
                point = try restore(builder, from: run.snapshot, of: index)
            } catch {
                return .mismatch(error.description)
            }
            for (id, chunk) in entries where chunk < run.first { builder.enterHistory(node: id) }
            guard let read = readChunksChecked(from: run.first, resumingAt: point, of: index, into: builder,
                                               readsOn: { $0 <= run.last }),
                  read.position == run.last + 1 else { return .mismatch("does not match the trace") }
        }
        return .read
    }
}
