import ReactorTraceFormat

extension TraceIndexSession {
    /// Restores `builder` from the snapshot `entry` of `index` (nil: from the trace's start,
    /// the builder as new) and returns where the reader resumes (nil: the start).
    func restore(_ builder: TraceModelBuilder, from entry: IndexedMoments.Entry?,
                 of index: TraceIndex) throws(TraceIndexError) -> TraceResumePoint? {
        guard let entry else {
            builder.reset()
            return nil
        }
        let (point, fields) = try index.snapshot(entry, forTrace: tracePath)
        var rest = fields
        try builder.restore(from: &rest)
        guard rest.readableBytes == 0 else { throw .damaged("bytes after a snapshot") }
        return point
    }

    /// Feeds `builder` the chunks from chunk `first` on, the reader resumed at `point`, each
    /// checked against `index`'s chunk table; after each chunk, `readsOn(position)` (the
    /// position of the next chunk) says whether to go on. Returns the position after the last
    /// chunk read and whether reading stopped before the trace's end; nil when a chunk is not
    /// the one the index holds there (or the trace cannot be read).
    func readChunksChecked(from first: Int, resumingAt point: TraceResumePoint?, of index: TraceIndex,
                           into builder: TraceModelBuilder, progress: ((Int) -> Void)? = nil,
                           readsOn: (Int) -> Bool) -> (position: Int, stoppedEarly: Bool)? {
        readChunksChecked(from: first, resumingAt: point, of: index, progress: progress, body: { builder.consume($0) },
                          readsOn: readsOn)
    }

    /// As ``readChunksChecked(from:resumingAt:of:into:progress:readsOn:)``, lending each batch to `body`.
    func readChunksChecked(from first: Int, resumingAt point: TraceResumePoint?, of index: TraceIndex,
                           progress: ((Int) -> Void)? = nil, body: (borrowing TraceEventBatch) -> Void,
                           readsOn: (Int) -> Bool) -> (position: Int, stoppedEarly: Bool)? {
        var collector = TraceIndexCollector()
        var position = first, matches = true
        let stoppedEarly: Bool
        do {
            (_, stoppedEarly) = try TraceFile.forEachBatchWithOffsets(path: tracePath, progress: progress,
                                                                       resumingAt: point) { batch in
                body(batch)
                collector.add(batch)
                countBatchRead()
            } ended: { endOffset, _ in
                let batch = collector.finishBatch(endOffset: endOffset)
                guard position < index.batches.count, index.batches[position] == batch else {
                    matches = false
                    return false
                }
                position += 1
                return readsOn(position)
            }
        } catch {
            return nil
        }
        return matches ? (position, stoppedEarly) : nil
    }
}
