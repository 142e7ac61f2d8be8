import ReactorTraceFormat

extension TraceIndexSession {
    /// Where the lines of one stretch of chunks come from: the snapshot a pass resumes at
    /// (nil: the trace's start) and the chunk it resumes from.
    private struct ReplayStart {
        var batch: Int
        var entry: IndexedMoments.Entry?
    }

    /// How a stretch of chunks was replayed.
    private enum StretchOutcome {
        case printed
        /// The index did not hold (a snapshot or a chunk differs): dropped, one note given.
        case dropped
    }

    /// `replay`'s lines from the index (docs/INSPECT.md, "The index"), with no lookahead pass:
    /// each node's final name from the kept model (`model` when the index keeps none: a
    /// follower's) and the naming events the index lists; each write's old → new in time order
    /// from the snapshot before the chunks printed and the chunks read on from there. Only the
    /// chunks whose times can hold an event of the filter's window are read, a stretch between
    /// two snapshots at a time; with `last`, stretches from the end backwards until `last`
    /// lines are found, which are then handed out in order. A filter by name reads only the
    /// chunks that mention its nodes (``nameChunks(filter:of:model:finalNames:)``): each alone
    /// from its light point when no line shows a write's value and they are few or `last` is
    /// asked (``replayAlone(_:names:last:filter:style:json:finalNames:actions:points:of:line:)``),
    /// else the stretches that hold them.
    ///
    /// `line` gets each line (UTF-8 with its newline; valid only inside it). Returns the whole
    /// trace's report and how many lines match (nil when reading stopped before the start,
    /// `last` lines found); nil when the index cannot answer, with nothing handed out (then
    /// the index is dropped with one note if it disagreed with the trace).
    func replay(filter: ReplayFilter, style: TextStyle, json: Bool, last: Int?, model: TraceModel? = nil,
                line: (UnsafeBufferPointer<UInt8>) -> Void) throws(TraceFileError) -> (TraceReadReport, matched: Int?)? {
        guard let index, let moments = index.moments, let names = index.model?.model ?? model else { return nil }
        let batches = index.batches
        let report = index.readReport(path: tracePath)
        // Final names as the lookahead's pass finds them: a node's last naming event's name,
        // else the name the trace created it with.
        var finalNames: [UInt64: String] = [:]
        for node in names.nodes where !node.givenName.isEmpty { finalNames[node.id] = node.givenName }
        for name in moments.names { finalNames[name.id] = name.name }
        // The chunks whose events can fall in the window.
        let from = filter.from ?? 0, to = filter.to ?? .max
        guard let low = batches.firstIndex(where: { $0.lastTime >= from && $0.firstTime <= to }),
              let high = batches.lastIndex(where: { $0.lastTime >= from && $0.firstTime <= to }) else {
            return (report, 0)
        }
        var starts = [ReplayStart(batch: 0, entry: nil)]
        if IndexKey.current != nil {
            for entry in moments.entries where entry.batch > starts[starts.count - 1].batch && entry.batch < batches.count {
                starts.append(ReplayStart(batch: entry.batch, entry: entry))
            }
        }
        // A name's lines are in the chunks that mention its nodes (the index's mentions).
        let named: NameChunks?
        do throws(TraceIndexError) {
            named = try nameChunks(filter: filter, of: index, model: names, finalNames: finalNames)
        } catch {
            self.index = nil
            noteAndRebuild(error.description)
            return nil
        }
        let wanted = named?.chunks.filter { (low...high).contains($0) }
        if let wanted, wanted.isEmpty { return (report, 0) }
        if let named, let wanted, let points = index.lightPoints,
           !(named.hasValues && index.hasValues && filter.kinds.map { $0.contains(.changed) || $0.contains(.value) } ?? true),
           last != nil || wanted.count * 2 <= high - low + 1 {
            // Few chunks, or the last lines: each chunk alone from its light point.
            switch replayAlone(wanted, names: named, last: last, filter: filter, style: style, json: json,
                               finalNames: finalNames, actions: names.actions, points: points, of: index, line: line) {
            case .printed(let matched): return (report, matched)
            case .dropped: return nil
            case .changed:
                throw TraceFileError(path: tracePath, reason: .unreadable(path: tracePath, reason: "it changed while it was read"))
            }
        }
        // Stretches: the chunks from one snapshot to the next, within low...high (and from the first to
        // the last chunk there that mentions a name asked for).
        var stretches: [(start: Int, first: Int, last: Int)] = []
        for (position, start) in starts.enumerated() {
            let end = position + 1 < starts.count ? starts[position + 1].batch - 1 : batches.count - 1
            var first = max(start.batch, low), last = min(end, high)
            if let wanted, first <= last {
                guard let earliest = wanted.first(where: { $0 >= first }), earliest <= last,
                      let latest = wanted.last(where: { $0 <= last }) else { continue }
                (first, last) = (earliest, latest)
            }
            if first <= last { stretches.append((position, first, last)) }
        }
        let context = ReplayContext(filter: filter, style: style, json: json, finalNames: finalNames, starts: starts,
                                    moments: moments)
        guard let last else {
            // Forward, a stretch at a time; a chunk's lines go out once the chunk is checked.
            var matched = 0, pending: [UInt8] = [], handedOut = false
            for stretch in stretches {
                let outcome = replayStretch(stretch.start, printing: stretch.first...stretch.last, of: index,
                                            context) { bytes in
                    pending.append(contentsOf: bytes)
                    matched += 1
                } checked: {
                    guard !pending.isEmpty else { return }
                    handedOut = true
                    pending.withUnsafeBufferPointer { line($0) }
                    pending.removeAll(keepingCapacity: true)
                }
                if case .dropped = outcome {
                    guard !handedOut else {
                        throw TraceFileError(path: tracePath, reason: .unreadable(path: tracePath,
                                                                                 reason: "it changed while it was read"))
                    }
                    return nil
                }
            }
            return (report, matched)
        }
        // Backward: each stretch's last `last` lines before the ones found after it.
        var found: [[UInt8]] = []
        var matched = 0, reachedStart = true
        for (position, stretch) in stretches.enumerated().reversed() {
            var kept = LastLines(limit: last)
            let outcome = replayStretch(stretch.start, printing: stretch.first...stretch.last, of: index,
                                        context) { bytes in
                matched += 1
                kept.keep(bytes)
            } checked: {}
            if case .dropped = outcome { return nil }
            found = Array((kept.lines + found).suffix(last))
            if last > 0, found.count >= last, position > 0 {
                reachedStart = false
                break
            }
        }
        for bytes in found { bytes.withUnsafeBufferPointer { line($0) } }
        return (report, reachedStart ? matched : nil)
    }

    /// Whether a pass of this session can leave the index `replay` answers from (the plain
    /// model, snapshots, light points, mentions) where it lacks them: it can be written and
    /// kept under this user's key.
    var leavesIndexForReplay: Bool {
        writes && IndexKey.current != nil && !(index?.keepsModel == true && index?.hasSnapshots == true)
    }

    /// `replay`'s lookahead pass (``TraceLookahead``), which leaves the index beside it too (the
    /// pass of ``TraceIndex/build(forTrace:progress:)``, in the same read): a first `replay`
    /// leaves what the next one answers from.
    func lookaheadLeavingIndex(keepingValues: Bool) throws(TraceFileError) -> TraceLookahead {
        var lookahead = TraceLookahead.Collector(keepingValues: keepingValues)
        let indexBuilder = TraceModelBuilder(options: TraceModelBuilder.checkpointOptions, numbersActions: true)
        var kept: TraceModel?
        _ = try forEachBatch(progress: nil, until: { nil }, keeping: { report in
            if let kept { return kept }
            let model = Self.plainModel(of: indexBuilder, report, forgettingValues: true)
            kept = model
            return model
        }, snapshotting: indexBuilder) { batch in
            lookahead.add(batch)
        }
        return lookahead.lookahead()
    }

    /// What every stretch of one `replay` shares.
    private struct ReplayContext {
        let filter: ReplayFilter
        let style: TextStyle
        let json: Bool
        let finalNames: [UInt64: String]
        let starts: [ReplayStart]
        let moments: IndexedMoments
    }

    /// Prints the lines of the chunks `printed`, which lie between snapshot `start` and the
    /// next: read from the latest snapshot at or before `start` from which every write's
    /// previous value in time order is known (``valueWindow(from:through:of:finalNames:)``),
    /// the chunks before `printed` applied without lines. `line` gets each line, `checked` is
    /// called once each printed chunk is checked against the index.
    private func replayStretch(_ start: Int, printing printed: ClosedRange<Int>, of index: TraceIndex,
                               _ context: ReplayContext, line: (UnsafeBufferPointer<UInt8>) -> Void,
                               checked: () -> Void) -> StretchOutcome {
        func drop(_ reason: String) -> StretchOutcome {
            self.index = nil
            noteAndRebuild(reason)
            return .dropped
        }
        var from = start
        var lookahead: TraceLookahead
        while true {
            // Only a `changed` line shows a previous value: without one, every write reads as ordered, as in the pass.
            guard index.hasValues, context.filter.kinds?.contains(.changed) ?? true else {
                lookahead = TraceLookahead(first: 0, covered: .max, previous: [], texts: [],
                                           finalNames: context.finalNames, events: index.events)
                break
            }
            let window: TraceLookahead?
            do throws(TraceIndexError) {
                window = try valueWindow(from: context.starts[from], through: printed.upperBound, of: index,
                                         finalNames: context.finalNames)
            } catch {
                return drop(error.description)
            }
            if let window {
                lookahead = window
                break
            }
            // A write before the snapshot is later than one after it: an earlier snapshot knows its place.
            from -= 1
        }
        var options = TraceModelOptions(tracksValues: true)
        options.lookahead = lookahead
        let builder = TraceModelBuilder(options: options)
        let resume = context.starts[from]
        let point: TraceResumePoint?
        do throws(TraceIndexError) {
            point = try restore(builder, from: resume.entry, of: index)
        } catch {
            return drop(error.description)
        }
        var named = Set<UInt64>()
        for name in context.moments.names where name.batch < resume.batch { named.insert(name.id) }
        builder.adoptFinalNames(except: named)
        let formatter = ReplayFormatter(filter: context.filter, style: context.style, json: context.json,
                                        importer: builder)
        var position = resume.batch
        guard let read = readChunksChecked(from: resume.batch, resumingAt: point, of: index, body: { batch in
            if position < printed.lowerBound {
                builder.consume(batch)
            } else {
                formatter.withEachLine(of: batch, line)
            }
        }, readsOn: { next in
            position = next
            if next > printed.lowerBound { checked() }
            return next <= printed.upperBound
        }), read.position == printed.upperBound + 1 else {
            return drop("does not match the trace")
        }
        return .printed
    }

    /// The lookahead of the value events a pass resumed at `start` meets up to chunk `last`:
    /// each one's previous value in time order (docs/TRACE_FORMAT.md, 7a), from the writes of
    /// the chunks from `start` to the last that can hold a write as early as theirs and, for
    /// writes before them all, each node's latest value at the snapshot. Nil when a write
    /// before the snapshot is later than one after it (whose previous value the snapshot then
    /// cannot say), or when a `changed` after it belongs to a write before it. Throws when the snapshot or a chunk disagrees with the index.
    private func valueWindow(from start: ReplayStart, through last: Int, of index: TraceIndex,
                             finalNames: [UInt64: String]) throws(TraceIndexError) -> TraceLookahead? {
        let probe = TraceModelBuilder(options: TraceModelBuilder.checkpointOptions)
        let point = try restore(probe, from: start.entry, of: index)
        // A write before the snapshot whose `changed` comes after it, before the node's next
        // write: its old → new are in the chunks before the snapshot.
        var awaiting = probe.writesAwaitingAChange, changeBeforeSnapshot = false
        // Chunks after `last` that can hold a write at or before the latest the pass meets.
        var latest: UInt64 = 0
        for chunk in start.batch...last { latest = max(latest, index.batches[chunk].lastTime) }
        var end = last + 1
        while !index.nothingAtOrBefore(latest, from: end) { end += 1 }
        // Each write's text at its own position (no table of distinct texts: hashing every text cost more
        // than keeping the window's), the snapshot's values after them.
        var nodes: [UInt64] = [], times: [UInt64] = [], values: [Int32] = []
        var texts: [String] = []
        func intern(_ text: String) -> Int32 {
            texts.append(text)
            return Int32(clamping: texts.count - 1)
        }
        var position = start.batch, met = 0
        guard let read = readChunksChecked(from: start.batch, resumingAt: point, of: index, body: { batch in
            let thread = batch.thread
            for event in batch.events {
                switch event.record {
                case let .value(node, value):
                    nodes.append(node)
                    times.append(event.timestamp)
                    values.append(intern(batch.string(value)))
                    if !awaiting.isEmpty { awaiting[thread] = nil }
                case let .changed(node) where !awaiting.isEmpty && position <= last:
                    if awaiting[thread] == node { changeBeforeSnapshot = true }
                default:
                    break
                }
            }
            if position <= last { met = nodes.count }
        }, readsOn: { next in
            position = next
            return next < end
        }), read.position == end else { throw .damaged("does not match the trace") }
        guard !changeBeforeSnapshot else { return nil }
        // In time order per node (ties in file order); the first of a node follows its value at the snapshot.
        let order = nodes.indices.sorted { (nodes[$0], times[$0], $0) < (nodes[$1], times[$1], $1) }
        var previous = [Int32](repeating: -1, count: met)
        var atSnapshot: (node: UInt64, value: (text: Int32, time: UInt64)?) = (0, nil)
        for (rank, event) in order.enumerated() {
            let node = nodes[event]
            let before = rank > 0 && nodes[order[rank - 1]] == node ? order[rank - 1] : nil
            if before == nil {
                atSnapshot = (node, probe.latestValue(ofNode: node).map { (intern($0.value), $0.time) })
            }
            guard event < met else { continue }
            if let known = atSnapshot.value {
                // Every earlier write is before this one in time only if the latest is.
                guard known.time <= times[event] else { return nil }
                // After the snapshot's value in time order unless the write before is later (or as late, being later in the file).
                if let before, times[before] >= known.time { previous[event] = values[before] } else { previous[event] = known.text }
            } else if let before {
                previous[event] = values[before]
            }
        }
        return TraceLookahead(first: probe.valueEvents, covered: met, previous: previous, texts: texts,
                              finalNames: finalNames, events: index.events)
    }
}
