import ReactorTraceFormat

extension TraceIndexSession {
    /// The timeline between `from` and `to` for a picture `width` pixels wide from the index
    /// (``TraceTimeline``): each stretch of the index's overview (``IndexedOverview``) whose sums
    /// fall each in one pixel of the picture (or outside it) is drawn from its sums, its slices
    /// and its issues; the others, the runs of them next to each other, are read from the trace,
    /// the importer restored from the latest snapshot before each run. What the trace ends
    /// inside comes from the overview, the trace's first and last times from the chunk table
    /// and `threads` (the threads that recorded an event, ascending) from the model, so the
    /// answer is the pass's. Nil when the index has no overview, or when the overview, a
    /// snapshot or a chunk is not what it should be (then the index is dropped with one note).
    func timeline(from: UInt64, to: UInt64, width: Int, threads: [UInt32]) -> TraceTimeline? {
        guard let index, let section = index.overview, !index.batches.isEmpty else { return nil }
        let overview: IndexedOverview.Decoded
        do throws(TraceIndexError) {
            overview = try section.decode(batchCount: index.batches.count, threadCount: index.threadCount)
        } catch {
            self.index = nil
            noteAndRebuild(error.description)
            return nil
        }
        var drawing = TraceTimelineBuilder(from: from, to: to, width: width)
        let stretches = overview.stretches
        let read = stretches.map { !Self.draws($0, in: drawing, batches: index.batches) }
        var position = 0
        while position < stretches.count {
            guard read[position] else {
                Self.add(stretches[position], labels: overview.labels, to: &drawing)
                position += 1
                continue
            }
            var end = position
            while end < stretches.count, read[end] { end += 1 }
            let chunks = stretches[position].chunks.lowerBound..<stretches[end - 1].chunks.upperBound
            guard self.read(chunks, of: index, threads: threads, into: &drawing) else { return nil }
            position = end
        }
        let begin = index.batches.lazy.map(\.firstTime).min() ?? 0
        drawing.cover(begin: begin, end: index.latestTimestamp, threads: threads)
        return drawing.finish(open: overview.open)
    }

    /// Whether `stretch` can be drawn from its sums: each falls in one pixel of `drawing` or
    /// outside its window, and its issues in the window are all kept.
    static func draws(_ stretch: IndexedOverview.Stretch, in drawing: TraceTimelineBuilder,
                              batches: [TraceIndex.Batch]) -> Bool {
        if stretch.moreIssues {
            let chunks = batches[stretch.chunks]
            let first = chunks.lazy.map(\.firstTime).min() ?? 0, last = chunks.lazy.map(\.lastTime).max() ?? 0
            guard first >= drawing.from, last <= drawing.to else { return false }
        }
        let bucket = UInt64(1) << stretch.shift
        if drawing.pixel % bucket == 0 { return true }
        for sum in stretch.sums {
            let start = sum.bucket << stretch.shift
            let first = start / drawing.pixel, last = (start | (bucket - 1)) / drawing.pixel
            if first != last, last >= drawing.firstPixel, first <= drawing.lastPixel { return false }
        }
        return true
    }

    /// Draws `stretch` from its sums, slices and issues (``draws(_:in:batches:)``).
    static func add(_ stretch: IndexedOverview.Stretch, labels: [(name: String, kind: String)],
                            to drawing: inout TraceTimelineBuilder) {
        for sum in stretch.sums {
            let index = (sum.bucket << stretch.shift) / drawing.pixel
            guard index >= drawing.firstPixel, index <= drawing.lastPixel else { continue }
            let label = labels[Int(sum.label)]
            drawing.add(TraceTimelineBuilder.Sum(count: sum.count, total: sum.total, longest: sum.longest,
                                                 longestBegin: sum.longestBegin, name: label.name, kind: label.kind),
                        thread: sum.thread, depth: Int(sum.depth), pixel: index)
        }
        for slice in stretch.slices {
            let label = labels[Int(slice.label)]
            drawing.add(thread: slice.thread, depth: Int(slice.depth), begin: slice.begin, duration: slice.duration,
                        name: label.name, kind: label.kind, unfinished: false)
        }
        for issue in stretch.issues where drawing.takesMarkers {
            drawing.addMarker(thread: issue.thread, time: issue.time, kind: issue.kind, message: issue.message)
        }
    }

    /// Draws what ends in `chunks` by reading them, the importer restored from the latest
    /// snapshot at or before the first of them that can end a slice in the window; reading
    /// stops once no chunk left can hold an event in the window and no slice begun in it is
    /// open. False when a snapshot or chunk does not match the index (then it is dropped with one note).
    private func read(_ chunks: Range<Int>, of index: TraceIndex, threads: [UInt32],
                      into drawing: inout TraceTimelineBuilder) -> Bool {
        // A thread's times never decrease: a slice ends at its end event's time, an issue is at its own.
        let start = drawing.firstPixel * drawing.pixel
        let (end, overflow) = (drawing.lastPixel + 1).multipliedReportingOverflow(by: drawing.pixel)
        let last = max(drawing.to, overflow ? UInt64.max : end - 1)
        var first = chunks.lowerBound
        while first < chunks.upperBound, index.batches[first].lastTime < start { first += 1 }
        guard first < chunks.upperBound else { return true }
        var entry: IndexedMoments.Entry?
        if IndexKey.current != nil, let moments = index.moments {
            entry = moments.entries.last { $0.batch <= first && $0.batch < index.batches.count }
        }
        // Values tracked only because a snapshot restores into such a builder: the slices and names are the same.
        let builder = TraceModelBuilder(options: TraceModelBuilder.checkpointOptions)
        let point: TraceResumePoint?
        do throws(TraceIndexError) {
            point = try restore(builder, from: entry, of: index)
        } catch {
            self.index = nil
            noteAndRebuild(error.description)
            return false
        }
        var position = entry?.batch ?? 0
        guard position < chunks.upperBound else { return true }
        guard let read = readChunksChecked(from: position, resumingAt: point, of: index, body: { batch in
            if position < first { builder.consume(batch) } else { builder.consume(batch, visiting: &drawing) }
        }, readsOn: { next in
            position = next
            guard next < chunks.upperBound else { return false }
            return next < first || !index.nothingAtOrBefore(last, from: next)
                || threads.contains { thread in builder.openSlices(onThread: thread).contains { $0.slice.begin <= last } }
        }), read.position <= chunks.upperBound, read.position == position else {
            self.index = nil
            noteAndRebuild("does not match the trace")
            return false
        }
        return true
    }
}

extension TraceTimeline {
    /// As ``read(path:from:to:width:)``, from `index` (the follower's, of the trace's first
    /// bytes) when it can answer: a window many chunks wide from the index's overview, the
    /// chunks it cannot draw read from the snapshot before them (``TraceIndexSession``).
    /// `threads` are the threads that recorded an event in what the index covers, ascending
    /// (``TraceModel/threadIndexes``). Nil when the index cannot answer.
    public static func read(path: String, from: UInt64?, to: UInt64?, width: Int, index: TraceIndex,
                            threads: [UInt32]) -> TraceTimeline? {
        guard !index.batches.isEmpty else { return nil }
        let begin = index.batches.lazy.map(\.firstTime).min() ?? 0
        let first = from ?? begin, last = max(to ?? index.latestTimestamp, first)
        return TraceIndexSession(tracePath: path, given: index).timeline(from: first, to: last, width: width,
                                                                         threads: threads)
    }
}
