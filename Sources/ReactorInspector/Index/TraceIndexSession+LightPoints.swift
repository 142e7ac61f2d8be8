import ReactorTraceFormat

extension TraceIndexSession {
    /// What reading chunks alone from their light points gave.
    enum LightHistoryRead {
        /// The value history of those chunks, in file order.
        case entries([ValueHistoryTracker.Resolved])
        /// A chunk disagrees with the index.
        case mismatch(String)
        /// Reading them would cost more than a pass.
        case tooMuch
    }

    /// The value history of the nodes `following` in `chunks` (in file order), each chunk
    /// read alone from its light point by a builder of `options` (``TraceModelBuilder/startReadingLightPoints(actions:)``)
    /// and checked against `index`'s chunk table.
    func readFromLightPoints(_ chunks: [Int], following: [UInt64],
                             points: (chunks: [IndexedLightPoints.Chunk], creations: [IndexedLightPoints.Creation]),
                             options: TraceModelOptions, actions: [ActionStats], actionName: (Int32) -> String,
                             snapshots: TraceModelBuilder, moments: IndexedMoments, budget: Int,
                             of index: TraceIndex) -> LightHistoryRead {
        guard !chunks.isEmpty else { return .entries([]) }
        let builder = TraceModelBuilder(options: options)
        guard builder.startReadingLightPoints(actions: actions) else {
            return .mismatch(TraceIndexError.damaged("actions that are not a trace's").description)
        }
        for id in following { builder.follow(id) }
        var contexts = ThreadContexts(points.chunks.lazy.map { ($0.thread, $0.fresh) })
        // Nodes whose roots the chunks read since the last one skipped set.
        var touched = Set<UInt64>()
        // Creation events applied: those of the chunks before `kindsAt`.
        var creation = 0, kindsAt = 0
        // Chunks left to read, lookbacks included: more than the trace's costs more than a pass.
        var budget = budget
        func read(_ position: Int) -> String? {
            let chunk = points.chunks[position]
            if position < kindsAt {
                for earlier in points.creations[..<creation] { builder.setComputed(earlier.id, false) }
                creation = 0
            }
            while creation < points.creations.count, points.creations[creation].chunk < position {
                builder.setComputed(points.creations[creation].id, points.creations[creation].computed)
                creation += 1
            }
            kindsAt = position
            guard builder.restoreThread(chunk.thread, frames: chunk.frames) else {
                return TraceIndexError.damaged("a light point of an unknown action").description
            }
            let previous: TraceResumePoint?
            switch contexts.context(for: position, of: chunk.thread, readQuietly: { earlier, previous in
                readChunk(earlier, of: points.chunks[earlier], continuing: previous, index: index, into: nil,
                          touching: &touched)
            }) {
            case let .success(context): previous = context
            case let .failure(failure): return failure.description
            }
            guard let after = readChunk(position, of: chunk, continuing: previous, index: index, into: builder,
                                        touching: &touched)
            else { return "does not match the trace" }
            contexts.read(position, of: chunk.thread, leaving: after)
            budget -= 1
            return nil
        }
        var lastRead = -2
        var collected: [ValueHistoryTracker.Resolved] = []
        for position in chunks {
            if position != lastRead + 1 {
                builder.forgetRoots(of: touched)
                touched.removeAll(keepingCapacity: true)
            }
            guard budget > 0 else { return .tooMuch }
            if let mismatch = read(position) { return .mismatch(mismatch) }
            // A value whose cause lies before the chunk: read it again after a few chunks before it,
            // or from the latest snapshot when that is as near.
            let snapshot = moments.entries.last { $0.batch <= position }
            let fromSnapshot = position - (snapshot?.batch ?? 0)
            var lookback = 4
            while builder.hasUnknownRoots(from: 0) {
                builder.truncateHistory(to: 0)
                builder.forgetRoots(of: touched)
                touched.removeAll(keepingCapacity: true)
                if lookback >= fromSnapshot || lookback > 16 {
                    guard budget > fromSnapshot + 1 else { return .tooMuch }
                    budget -= fromSnapshot + 1
                    switch readFromSnapshot(snapshot, through: position, following: following, into: snapshots,
                                            actionName: actionName, of: index) {
                    case .mismatch(let reason): return .mismatch(reason)
                    case .entries(let entries): collected += entries
                    case .tooMuch: return .tooMuch
                    }
                    break
                }
                guard budget > lookback + 1 else { return .tooMuch }
                for earlier in max(0, position - lookback)..<position {
                    if let mismatch = read(earlier) { return .mismatch(mismatch) }
                }
                builder.truncateHistory(to: 0)
                if let mismatch = read(position) { return .mismatch(mismatch) }
                lookback *= 4
            }
            collected += builder.recordedHistory(actionName: actionName)
            builder.truncateHistory(to: 0)
            lastRead = position
        }
        return budget >= 0 ? .entries(collected) : .tooMuch
    }

    /// The value history of chunk `position` alone, read on from `snapshot` (nil: the trace's start) by `builder`.
    private func readFromSnapshot(_ snapshot: IndexedMoments.Entry?, through position: Int, following: [UInt64],
                                  into builder: TraceModelBuilder, actionName: (Int32) -> String,
                                  of index: TraceIndex) -> LightHistoryRead {
        let point: TraceResumePoint?
        do throws(TraceIndexError) {
            point = try restore(builder, from: snapshot, of: index)
        } catch {
            return .mismatch(error.description)
        }
        builder.forgetHistory()
        for id in following { builder.enterHistory(node: id) }
        var recorded = 0
        guard let read = readChunksChecked(from: snapshot?.batch ?? 0, resumingAt: point, of: index, into: builder,
                                           readsOn: { next in
                                               if next == position { recorded = builder.historyCount }
                                               return next <= position
                                           }),
              read.position == position + 1 else { return .mismatch("does not match the trace") }
        if position == (snapshot?.batch ?? 0) { recorded = 0 }
        let entries = builder.recordedHistory(actionName: actionName)
        return .entries(Array(entries[recorded...]))
    }

    /// Reads the chunk at `position` (its light point `chunk`) alone, with its thread's context
    /// after the chunk before it (`previous`, unless it opens a fresh one), checked against the
    /// index's chunk table; `builder` (if any) takes its events, and `touched` gains the nodes
    /// whose roots they set. Returns the reader's point after it; nil when it is not the chunk the index holds.
    private func readChunk(_ position: Int, of chunk: IndexedLightPoints.Chunk, continuing previous: TraceResumePoint?,
                           index: TraceIndex, into builder: TraceModelBuilder?,
                           touching touched: inout Set<UInt64>) -> TraceResumePoint? {
        readChunkAlone(position, of: chunk, continuing: previous, index: index, counted: builder != nil) { batch in
            guard let builder else { return }
            builder.consume(batch)
            for event in batch.events {
                switch event.record {
                case let .invalidated(computation, _, _), let .rerunBegan(computation, _), let .rerunEnded(computation):
                    touched.insert(computation)
                case let .changed(dependency):
                    touched.insert(dependency)
                case let .value(node, _):
                    touched.insert(node)
                default:
                    break
                }
            }
        }
    }
}
