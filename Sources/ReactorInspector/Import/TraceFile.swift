import ReactorTraceFormat

/// Reads trace files for the analyses, streaming: events are decoded chunk by
/// chunk and handed on, never kept.
///
/// Each read takes the file as it is when the read begins, up to its size
/// then (``TraceReader/init(path:mode:)``): a trace still being recorded is
/// read as far as it was written and the read ends, instead of chasing the
/// recorder; a block the recorder was writing at that point is not yet
/// written, not damage (the report says the trace has no end block yet).
public enum TraceFile {
    /// How often `progress` is called by default, in events.
    public static let progressInterval = 1 << 18

    /// Calls `body` with every readable event of the trace at `path`, in order.
    ///
    /// Throws for a file that cannot be read at all (missing, empty, foreign,
    /// a newer major version, cut inside its header). A file damaged or cut
    /// later is read up to the damage; the report says where it stopped.
    /// `progress` receives the number of events read so far, every
    /// `progressEvery` events.
    public static func forEachEvent(path: String, progressEvery: Int = progressInterval,
                                    progress: ((Int) -> Void)? = nil,
                                    _ body: (TraceEvent) -> Void) throws(TraceFileError) -> TraceReadReport {
        let interval = max(1, progressEvery)
        let reader = try open(path)
        let pass = TracePass.current
        var count = 0, nextProgress = progress == nil ? Int.max : interval
        // Lenient mode: damage ends the stream and is reported in `truncation`.
        while true {
            let before = count
            guard (try? reader.nextBatch({ batch in
                for position in 0..<batch.count {
                    body(batch.event(at: position))
                    count += 1
                    if count == nextProgress {
                        progress?(count)
                        nextProgress += interval
                    }
                }
            })) == true else { break }
            try pass?.read(count - before, path: path)
        }
        return TraceReadReport(path: path, events: count, truncation: reader.truncation,
                               skippedEvents: reader.skippedEvents, clockEvents: reader.clockEvents,
                               trailingBytesOffset: reader.trailingBytesOffset, end: reader.end,
                               stillRecording: reader.isStillRecording, metadata: reader.metadata,
                               history: reader.history)
    }

    /// Lends `body` every readable event of the trace at `path` a batch at a
    /// time, as plain events read in place (see ``TraceReader/nextBatch(_:)``):
    /// the fastest way through a trace. Errors and damage as for
    /// ``forEachEvent(path:progressEvery:progress:_:)``; `progress` is called
    /// between batches with each multiple of `progressEvery` passed.
    public static func forEachBatch(path: String, progressEvery: Int = progressInterval,
                                    progress: ((Int) -> Void)? = nil,
                                    _ body: (borrowing TraceEventBatch) -> Void) throws(TraceFileError)
        -> TraceReadReport {
        let interval = max(1, progressEvery)
        let reader = try open(path)
        let pass = TracePass.current
        var count = 0, nextProgress = progress == nil ? Int.max : interval
        var batchCount = 0
        while (try? reader.nextBatch({ batch in body(batch); batchCount = batch.count })) == true {
            count += batchCount
            try pass?.read(batchCount, path: path)
            while count >= nextProgress {
                progress?(nextProgress)
                nextProgress += interval
            }
        }
        return TraceReadReport(path: path, events: count, truncation: reader.truncation,
                               skippedEvents: reader.skippedEvents, clockEvents: reader.clockEvents,
                               trailingBytesOffset: reader.trailingBytesOffset, end: reader.end,
                               stillRecording: reader.isStillRecording, metadata: reader.metadata,
                               history: reader.history)
    }

    /// Builds the model of the trace at `path` in one streaming pass.
    public static func model(path: String, options: TraceModelOptions = TraceModelOptions(),
                             progress: ((Int) -> Void)? = nil) throws(TraceFileError) -> (TraceModel, TraceReadReport) {
        try model(path: path, builder: TraceModelBuilder(options: options), progress: progress)
    }

    /// Feeds the trace at `path` to `builder` and returns its model.
    static func model(path: String, builder: TraceModelBuilder,
                      progress: ((Int) -> Void)?) throws(TraceFileError) -> (TraceModel, TraceReadReport) {
        // Whole chunks of plain events, read in place: no event is built or copied.
        let report = try forEachBatch(path: path, progress: progress) { builder.consume($0) }
        var model = builder.finish()
        model.skippedEvents = report.skippedEvents
        model.clockEvents = report.clockEvents
        return (model, report)
    }

    /// The header of the trace at `path`: when and by which process it was recorded.
    public static func header(path: String) throws(TraceFileError) -> TraceHeader {
        try open(path).header
    }

    /// Opens the trace for a pass (as far as the current ``TracePass`` lets it read).
    private static func open(_ path: String) throws(TraceFileError) -> TraceReader {
        try TracePass.reader(path: path)
    }
}
