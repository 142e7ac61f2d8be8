import ReactorTraceFormat

extension TraceIndexSession {
    /// The timeline between `from` and `to` for a picture `width` pixels wide from the index
    /// (``TraceTimeline``): the importer restored from the latest snapshot at or before the
    /// first chunk that can hold an event at or after `from` (the slices open there come with
    /// it), the chunks from there on read until none can hold an event at or before `to` and
    /// no slice begun by `to` is still open. The trace's first and last times come from the
    /// chunk table and `threads` (the threads that recorded an event, ascending) from the
    /// model, so the answer is the pass's. Nil when the index has no snapshots' table or a
    /// chunk is not the one it holds (then the index is dropped with one note).
    func timeline(from: UInt64, to: UInt64, width: Int, threads: [UInt32]) -> TraceTimeline? {
        guard let index, let moments = index.moments, !index.batches.isEmpty else { return nil }
        let batches = index.batches
        // Every chunk before `first` ends before the window: none of its slices or issues is drawn.
        var first = 0
        while first < batches.count, batches[first].lastTime < from { first += 1 }
        var start: IndexedMoments.Entry?
        if IndexKey.current != nil {
            start = moments.entries.last { $0.batch <= first && $0.batch < batches.count }
        }
        // Values tracked only because a snapshot restores into such a builder: the slices and names are the same.
        let builder = TraceModelBuilder(options: TraceModelBuilder.checkpointOptions)
        let point: TraceResumePoint?
        do throws(TraceIndexError) {
            point = try restore(builder, from: start, of: index)
        } catch {
            self.index = nil
            noteAndRebuild(error.description)
            return nil
        }
        var drawing = TraceTimelineBuilder(from: from, to: to, width: width)
        var position = start?.batch ?? 0
        if position < batches.count {
            guard let read = readChunksChecked(from: position, resumingAt: point, of: index, body: { batch in
                if position < first { builder.consume(batch) } else { builder.consume(batch, visiting: &drawing) }
            }, readsOn: { next in
                position = next
                guard next < batches.count else { return false }
                return next < first || !index.nothingAtOrBefore(to, from: next)
                    || threads.contains { thread in builder.openSlices(onThread: thread).contains { $0.slice.begin <= to } }
            }), read.position == position else {
                self.index = nil
                noteAndRebuild("does not match the trace")
                return nil
            }
        }
        let begin = batches.lazy.map(\.firstTime).min() ?? 0
        drawing.cover(begin: begin, end: index.latestTimestamp, threads: threads)
        return drawing.finish(builder)
    }
}

extension TraceTimeline {
    /// As ``read(path:from:to:width:)``, from `index` (the follower's, of the trace's first
    /// bytes) when it can answer: only the chunks whose times reach the window are read
    /// (``TraceIndexSession``). `threads` are the threads that recorded an event in what the
    /// index covers, ascending (``TraceModel/threadIndexes``). Nil when the index cannot answer.
    public static func read(path: String, from: UInt64?, to: UInt64?, width: Int, index: TraceIndex,
                            threads: [UInt32]) -> TraceTimeline? {
        guard !index.batches.isEmpty else { return nil }
        let begin = index.batches.lazy.map(\.firstTime).min() ?? 0
        let first = from ?? begin, last = max(to ?? index.latestTimestamp, first)
        return TraceIndexSession(tracePath: path, given: index).timeline(from: first, to: last, width: width,
                                                                         threads: threads)
    }
}
