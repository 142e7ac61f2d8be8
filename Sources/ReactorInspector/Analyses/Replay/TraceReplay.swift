import ReactorTraceFormat

/// `replay`'s lines of a trace, one question: from the index beside the trace when it can
/// answer (no lookahead pass; only the chunks the filter's window and `last` need), else by
/// passes, as ``ReplayFormatter`` describes. The same lines either way.
public enum TraceReplay {
    /// Hands `line` the lines of the events of the trace at `path` that `filter` keeps, in
    /// order (UTF-8, each with its newline, several at once in one call; valid only inside
    /// `line`); with `last`, only the last `last` of them.
    ///
    /// With `index` ``TraceIndexUse/automatic(note:)`` or ``TraceIndexUse/given(_:)`` and an
    /// index that fits the trace and keeps its model and snapshots
    /// (``TraceIndexSession/replay(filter:style:json:last:model:line:)``), the lines come from
    /// it; `model` names the nodes of a given index that keeps no model (a follower's). Otherwise
    /// by two passes: the lookahead's (``TraceLookahead``, without previous values when the
    /// filter prints no `changed` line), then the lines'; `lookingAhead` false skips the first
    /// (for measuring it). With `index` ``TraceIndexUse/automatic(note:)`` and no such index,
    /// the lookahead's pass leaves one (as `index` does), and a filter by name, time or `last`
    /// is then answered from it instead of the lines' pass. Returns how reading went and how many lines matched (nil when reading
    /// stopped before the start, having found `last`).
    public static func lines(path: String, filter: ReplayFilter, style: TextStyle = .plain, json: Bool = false,
                             last: Int? = nil, index: TraceIndexUse, model: TraceModel? = nil,
                             lookingAhead: Bool = true, progress: ((Int) -> Void)? = nil,
                             _ line: (UnsafeBufferPointer<UInt8>) -> Void) throws(TraceFileError)
        -> (report: TraceReadReport, matched: Int?) {
        let session = lookingAhead ? index.session(tracePath: path) : nil
        if let session, let answered = try session.replay(filter: filter, style: style, json: json, last: last,
                                                          model: model, line: line) {
            return answered
        }
        // Only a `changed` line shows a previous value.
        let showsPrevious = filter.kinds?.contains(.changed) ?? true
        // Old → new in time order across threads and final names need every value event and name
        // first: a pass of its own (an unreadable trace fails in the pass below, with its one line),
        // which leaves the index where it can.
        var lookahead: TraceLookahead?
        if lookingAhead, let session, session.leavesIndexForReplay {
            lookahead = try? session.lookaheadLeavingIndex(keepingValues: showsPrevious)
            // A filter that keeps part of the trace reads less from that index than a pass of the lines.
            if lookahead != nil, !filter.names.isEmpty || filter.from != nil || filter.to != nil || last != nil,
               let answered = try session.replay(filter: filter, style: style, json: json, last: last, model: model,
                                                 line: line) {
                return answered
            }
        } else if lookingAhead {
            lookahead = try? TraceLookahead.read(path: path, keepingValues: showsPrevious)
        }
        var formatter = ReplayFormatter(filter: filter, style: style, json: json, lookahead: lookahead)
        // A trace still being recorded may have grown since the lookahead's pass: what it did not read is left out.
        var left = lookahead?.events ?? .max
        var matched = 0
        var kept = LastLines(limit: last ?? 0)
        let body: (borrowing TraceEventBatch) -> Void = { batch in
            guard left > 0 else { return }
            left -= batch.count
            guard last != nil else {
                // Lines are built as bytes and handed out a chunk's worth at a time, from where they were built.
                formatter.withLines(of: batch) { bytes in
                    for byte in bytes where byte == 0x0A { matched += 1 }
                    line(bytes)
                }
                return
            }
            formatter.withEachLine(of: batch) { bytes in
                matched += 1
                kept.keep(bytes)
            }
        }
        // Nothing after to:TIME is shown: with an index, the trace is read only up to there.
        let report = if let session {
            try session.forEachBatch(progress: progress, until: { filter.to }, body).0
        } else {
            try TraceFile.forEachBatch(path: path, progress: progress, body)
        }
        if last != nil {
            for bytes in kept.lines { bytes.withUnsafeBufferPointer { line($0) } }
        }
        return (report, matched)
    }
}
