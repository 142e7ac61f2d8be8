import ReactorTraceFormat

extension TraceIndexSession {
    /// The chunks `replay --filter name:` can print lines of, from the index's mentions
    /// (``IndexedMentions``).
    struct NameChunks {
        /// The chunks that mention a node whose name may match, in order.
        var chunks: [Int]
        /// Whether one of those nodes has value events: its `value` and `changed` lines need
        /// every earlier write of it, which chunks read alone do not have.
        var hasValues: Bool
        /// Every creation event of the trace, in file order.
        var creations: [(chunk: Int, id: UInt64, kind: TraceNodeKind)]
    }

    /// The chunks that can hold a line of `filter`'s names: those that mention a node one of whose
    /// names (its final one, or as unnamed: `#id`, `kind#id` for any kind it was created as)
    /// contains one of them. Nil when the index has no mentions, or when an action's name
    /// matches without its store's (its lines are in chunks no node lists).
    func nameChunks(filter: ReplayFilter, of index: TraceIndex, model: TraceModel,
                    finalNames: [UInt64: String]) throws(TraceIndexError) -> NameChunks? {
        guard !filter.names.isEmpty, let section = index.mentions else { return nil }
        let lowered = filter.names.map { $0.lowercased() }
        func matches(_ name: String) -> Bool {
            let name = name.lowercased()
            return lowered.contains { name.contains($0) }
        }
        var modelNames: [UInt64: String] = [:]
        for node in model.nodes { modelNames[node.id] = node.name }
        func mayMatch(_ id: UInt64, _ kinds: some Sequence<TraceNodeKind>) -> Bool {
            if let name = finalNames[id], matches(name) { return true }
            if let name = modelNames[id], matches(name) { return true }
            if matches(TraceNode.unnamed(id, createdAs: nil)) { return true }
            return kinds.contains { matches(TraceNode.unnamed(id, createdAs: $0)) }
        }
        var matching = Set<UInt64>()
        let nodes = try section.nodes(batchCount: index.batches.count) { id, creations in
            guard mayMatch(id, creations.lazy.map(\.kind)) else { return false }
            matching.insert(id)
            return true
        }
        for action in model.actions where !matching.contains(action.store) {
            let store = action.store == 0 ? "" : finalNames[action.store] ?? modelNames[action.store] ?? action.storeName
            if matches(store.isEmpty ? action.name : "\(store).\(action.name)") { return nil }
        }
        var chunks = Set<Int>(), hasValues = false
        var creations: [(chunk: Int, id: UInt64, kind: TraceNodeKind)] = []
        for node in nodes {
            for creation in node.creations { creations.append((creation.chunk, node.id, creation.kind)) }
            guard matching.contains(node.id) else { continue }
            hasValues = hasValues || node.hasValues
            for range in node.chunks { chunks.formUnion(range) }
        }
        creations.sort { $0.chunk < $1.chunk }
        return NameChunks(chunks: chunks.sorted(), hasValues: hasValues, creations: creations)
    }

    /// How reading chunks alone for `replay` went.
    enum AloneOutcome {
        /// The lines matched (nil: reading stopped before the first chunk, `last` lines found).
        case printed(matched: Int?)
        /// A chunk or point disagrees with the index: dropped, one note given.
        case dropped
        /// The trace changed under lines already handed out.
        case changed
    }

    /// `replay`'s lines of the chunks `wanted` (in order), each read alone from its light point
    /// (``IndexedLightPoints``): its thread's open runs and actions, the final names, and each
    /// node created, and as what, by the creation events before it. Right for every line whose
    /// event's value is not a write's (the caller's rule: no node it prints has value events, or
    /// no `value` or `changed` line is printed). With `last`, groups of chunks from the last
    /// backwards until `last` lines are found; `line` gets the lines in order.
    func replayAlone(_ wanted: [Int], names: NameChunks, last: Int?, filter: ReplayFilter, style: TextStyle, json: Bool,
                     finalNames: [UInt64: String], actions: [ActionStats], points section: IndexedLightPoints,
                     of index: TraceIndex, line: (UnsafeBufferPointer<UInt8>) -> Void) -> AloneOutcome {
        func drop(_ reason: String) -> AloneOutcome {
            self.index = nil
            noteAndRebuild(reason)
            return .dropped
        }
        let points: [IndexedLightPoints.Chunk]
        do throws(TraceIndexError) {
            points = try section.decode(batches: index.batches, actionCount: actions.count).chunks
        } catch {
            return drop(error.description)
        }
        var options = TraceModelOptions(tracksValues: true)
        // Final names from the first mention; no write's old value is printed (see above).
        options.lookahead = TraceLookahead(first: 0, covered: .max, previous: [], texts: [], finalNames: finalNames,
                                           events: index.events)
        let builder = TraceModelBuilder(options: options)
        guard builder.startReadingLightPoints(actions: actions) else {
            return drop(TraceIndexError.damaged("actions that are not a trace's").description)
        }
        let formatter = ReplayFormatter(filter: filter, style: style, json: json, importer: builder)
        var contexts = ThreadContexts(points.lazy.map { ($0.thread, $0.fresh) })
        // Creation events applied: those of chunks before `createdBefore`.
        var creation = 0, createdBefore = 0
        /// Reads chunk `position` (lines to `body`); false when it is not the index's.
        func read(_ position: Int, _ body: (borrowing TraceEventBatch) -> Void) -> String? {
            let point = points[position]
            if position < createdBefore {
                // Going back: as before any creation, then on from the start.
                var changed = false
                for made in names.creations where builder.setCreated(made.id, as: nil) { changed = true }
                creation = 0
                if changed { formatter.forgetRenderedNames() }
            }
            var changed = false
            while creation < names.creations.count, names.creations[creation].chunk < position {
                let made = names.creations[creation]
                if builder.setCreated(made.id, as: made.kind) { changed = true }
                creation += 1
            }
            if changed { formatter.forgetRenderedNames() }
            createdBefore = position
            guard builder.restoreThread(point.thread, frames: point.frames) else {
                return TraceIndexError.damaged("a light point of an unknown action").description
            }
            let previous: TraceResumePoint?
            switch contexts.context(for: position, of: point.thread, readQuietly: { earlier, previous in
                readChunkAlone(earlier, of: points[earlier], continuing: previous, index: index, counted: false,
                               body: { _ in })
            }) {
            case let .success(context): previous = context
            case let .failure(failure): return failure.description
            }
            guard let after = readChunkAlone(position, of: point, continuing: previous, index: index, counted: true,
                                             body: body) else { return "does not match the trace" }
            contexts.read(position, of: point.thread, leaving: after)
            return nil
        }
        guard let last else {
            var matched = 0, pending: [UInt8] = [], handedOut = false
            for position in wanted {
                let failure = read(position) { batch in
                    formatter.withEachLine(of: batch) { bytes in
                        pending.append(contentsOf: bytes)
                        matched += 1
                    }
                }
                if let failure { return handedOut ? .changed : drop(failure) }
                guard !pending.isEmpty else { continue }
                handedOut = true
                pending.withUnsafeBufferPointer { line($0) }
                pending.removeAll(keepingCapacity: true)
            }
            return .printed(matched: matched)
        }
        // Backward: each group's last `last` lines before the ones found after it.
        var found: [[UInt8]] = [], matched = 0, end = wanted.count, group = 4
        while end > 0 {
            let start = max(0, end - group)
            var kept = LastLines(limit: last)
            for position in wanted[start..<end] {
                if let failure = read(position, { batch in
                    formatter.withEachLine(of: batch) { bytes in
                        matched += 1
                        kept.keep(bytes)
                    }
                }) { return drop(failure) }
            }
            found = Array((kept.lines + found).suffix(last))
            end = start
            group *= 4
            if found.count >= last, end > 0 { break }
        }
        for bytes in found { bytes.withUnsafeBufferPointer { line($0) } }
        return .printed(matched: end == 0 ? matched : nil)
    }

    /// Reads the chunk at `position` (its light point `chunk`) alone, with its thread's context
    /// after the chunk before it (`previous`, unless it opens a fresh one), lending its batch to
    /// `body` and checking it against the index's chunk table (`counted`: in ``batchesRead``).
    /// Returns the reader's point after it; nil when it is not the chunk the index holds.
    func readChunkAlone(_ position: Int, of chunk: IndexedLightPoints.Chunk, continuing previous: TraceResumePoint?,
                        index: TraceIndex, counted: Bool,
                        body: (borrowing TraceEventBatch) -> Void) -> TraceResumePoint? {
        let point = TraceResumePoint.chunk(at: Int(chunk.start), thread: chunk.thread,
                                           continuing: chunk.fresh ? nil : previous,
                                           nextSequence: chunk.sequence, eventTime: chunk.eventTime)
        guard let reader = try? TraceReader(path: tracePath, resumingAt: point) else { return nil }
        var collector = TraceIndexCollector()
        var thread: UInt32?
        guard (try? reader.nextBatch { batch in
            thread = batch.thread
            collector.add(batch)
            body(batch)
        }) == true, thread == chunk.thread, reader.lastChunk?.offset == Int(chunk.start),
            collector.finishBatch(endOffset: UInt64(reader.bytesRead)) == index.batches[position]
        else { return nil }
        if counted { countBatchRead() }
        return reader.resumePoint()
    }
}
