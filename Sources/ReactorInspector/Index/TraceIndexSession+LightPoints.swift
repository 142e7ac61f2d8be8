import ReactorTraceFormat

extension TraceIndexSession {
    /// What reading chunks alone from their light points gave.
    enum LightHistoryRead {
        /// The value history of those chunks, in file order.
        case entries([ValueHistoryTracker.Resolved])
        /// A value's root action lies in a chunk not read.
        case unknownRoot
        /// A chunk disagrees with the index.
        case mismatch(String)
    }

    /// The value history of the nodes `following` in `chunks` (in file order), each chunk
    /// read alone from its light point by a builder of `options` (``TraceModelBuilder/startReadingLightPoints(actions:)``)
    /// and checked against `index`'s chunk table.
    func readFromLightPoints(_ chunks: [Int], following: [UInt64],
                             points: (chunks: [IndexedLightPoints.Chunk], creations: [IndexedLightPoints.Creation]),
                             options: TraceModelOptions, actions: [ActionStats], actionName: (Int32) -> String,
                             of index: TraceIndex) -> LightHistoryRead {
        guard !chunks.isEmpty else { return .entries([]) }
        let builder = TraceModelBuilder(options: options)
        guard builder.startReadingLightPoints(actions: actions) else { return .mismatch("actions that are not a trace's") }
        for id in following { builder.follow(id) }
        // Per chunk, the previous chunk of its thread (-1: none).
        var previousOfThread = [Int](repeating: -1, count: points.chunks.count)
        var lastOfThread: [UInt32: Int] = [:]
        for (position, chunk) in points.chunks.enumerated() {
            previousOfThread[position] = lastOfThread[chunk.thread] ?? -1
            lastOfThread[chunk.thread] = position
        }
        // Per thread, the reader's point after the last chunk of it read, and which chunk that was.
        var contexts: [UInt32: (chunk: Int, point: TraceResumePoint)] = [:]
        // Nodes whose roots the chunks read since the last one skipped set.
        var touched = Set<UInt64>()
        // Creation events applied: those of the chunks before `kindsAt`.
        var creation = 0, kindsAt = 0
        // Chunks read, lookbacks included: more than the trace's costs more than a pass.
        var budget = index.batches.count
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
                return "a light point of an unknown action"
            }
            var previous: TraceResumePoint?
            if !chunk.fresh {
                if let known = contexts[chunk.thread], known.chunk == previousOfThread[position] {
                    previous = known.point
                } else {
                    // The thread's context from its latest chunk that opened a fresh one.
                    var replay: [Int] = []
                    var back = previousOfThread[position]
                    while back >= 0 {
                        replay.append(back)
                        if points.chunks[back].fresh { break }
                        back = previousOfThread[back]
                    }
                    guard back >= 0 else { return "a chunk with no context to read it in" }
                    for earlier in replay.reversed() {
                        guard let after = readChunk(earlier, of: points.chunks[earlier], continuing: previous,
                                                    index: index, into: nil, touching: &touched)
                        else { return "does not match the trace" }
                        previous = after
                    }
                }
            }
            guard let after = readChunk(position, of: chunk, continuing: previous, index: index, into: builder,
                                        touching: &touched)
            else { return "does not match the trace" }
            contexts[chunk.thread] = (position, after)
            budget -= 1
            return nil
        }
        var lastRead = -2
        for position in chunks {
            if position != lastRead + 1 {
                builder.forgetRoots(of: touched)
                touched.removeAll(keepingCapacity: true)
            }
            let recorded = builder.historyCount
            if let mismatch = read(position) { return .mismatch(mismatch) }
            // A value whose cause lies before the chunk: read it again after more and more of the chunks before it.
            var lookback = 4
            while builder.hasUnknownRoots(from: recorded) {
                guard lookback <= 256, lookback <= position + 3, budget > lookback else { return .unknownRoot }
                builder.truncateHistory(to: recorded)
                builder.forgetRoots(of: touched)
                touched.removeAll(keepingCapacity: true)
                for earlier in max(0, position - lookback)..<position {
                    if let mismatch = read(earlier) { return .mismatch(mismatch) }
                }
                builder.truncateHistory(to: recorded)
                if let mismatch = read(position) { return .mismatch(mismatch) }
                lookback *= 4
            }
            lastRead = position
        }
        guard budget >= 0, let entries = builder.lightHistory(actionName: actionName) else { return .unknownRoot }
        return .entries(entries)
    }

    /// Reads the chunk at `position` (its light point `chunk`) alone, with its thread's context
    /// after the chunk before it (`previous`, unless it opens a fresh one), checked against the
    /// index's chunk table; `builder` (if any) takes its events, and `touched` gains the nodes
    /// whose roots they set. Returns the reader's point after it; nil when it is not the chunk the index holds.
    private func readChunk(_ position: Int, of chunk: IndexedLightPoints.Chunk, continuing previous: TraceResumePoint?,
                           index: TraceIndex, into builder: TraceModelBuilder?,
                           touching touched: inout Set<UInt64>) -> TraceResumePoint? {
        let point = TraceResumePoint.chunk(at: Int(chunk.start), thread: chunk.thread,
                                           continuing: chunk.fresh ? nil : previous,
                                           nextSequence: chunk.sequence, eventTime: chunk.eventTime)
        guard let reader = try? TraceReader(path: tracePath, resumingAt: point) else { return nil }
        var collector = TraceIndexCollector()
        var thread: UInt32?
        guard (try? reader.nextBatch { batch in
            thread = batch.thread
            collector.add(batch)
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
        }) == true, thread == chunk.thread, reader.lastChunk?.offset == Int(chunk.start),
            collector.finishBatch(endOffset: UInt64(reader.bytesRead)) == index.batches[position]
        else { return nil }
        if builder != nil { countBatchRead() }
        return reader.resumePoint()
    }
}
