import ReactorTraceFormat

extension TraceFile {
    /// Lends `body` the trace's batches as ``forEachBatch(path:progressEvery:progress:_:)``
    /// does, for a view that shows nothing after `until` (trace nanoseconds):
    /// with `index` ``TraceIndexUse/automatic(note:)`` and an index beside the
    /// trace that fits it, reading stops once no chunk left can hold an event
    /// at or before `until`, and the report is the whole trace's all the same.
    public static func forEachBatch(path: String, until: UInt64?, index: TraceIndexUse,
                                    progress: ((Int) -> Void)? = nil,
                                    _ body: (borrowing TraceEventBatch) -> Void) throws(TraceFileError)
        -> TraceReadReport {
        guard let session = index.session(tracePath: path) else {
            return try forEachBatch(path: path, progress: progress, body)
        }
        return try session.forEachBatch(progress: progress, until: { until }, body).0
    }

    /// Builds the model of the trace at `path` in one streaming pass, as
    /// ``model(path:options:progress:)`` does; with `index`
    /// ``TraceIndexUse/automatic(note:)`` the pass also leaves an index beside
    /// the trace when there is none that fits it (a model of the whole trace
    /// reads it all either way).
    public static func model(path: String, options: TraceModelOptions, index: TraceIndexUse,
                             progress: ((Int) -> Void)? = nil) throws(TraceFileError) -> (TraceModel, TraceReadReport) {
        guard let session = index.session(tracePath: path) else {
            return try model(path: path, options: options, progress: progress)
        }
        return try session.model(builder: TraceModelBuilder(options: options), progress: progress)
    }

    /// The model of the trace at `path` with `why target --limit limit`'s explanation, when the
    /// index beside the trace answers it without reading the trace (it fits the trace as it is now
    /// and keeps that explanation); nil otherwise. Never reads the trace's events, never writes.
    public static func explanationFromIndex(path: String, of target: String, limit: Int) -> TraceModel? {
        TraceIndexSession(tracePath: path, note: { _ in }).explanationFromIndex(of: target, limit: limit)?.0
    }
}
