#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ReactorInspector
import ReactorTraceFormat

/// One pass over what a trace file holds when the pass begins, for the
/// endpoints that read the file themselves (`why`, `state`, `replay`). A
/// plain read goes on until the end of the file, which a fast recorder keeps
/// moving: the pass follows the file instead (a chunk still being written is
/// not damage) and stops at the size it saw at the start.
enum TracePass {
    /// Lends each batch of the trace at `path`, up to its size now, to `body`.
    static func forEachBatch(path: String, _ body: (borrowing TraceEventBatch) -> Void) throws(TraceFileError) {
        let reader: TraceReader
        do {
            reader = try TraceReader(following: path)
        } catch {
            throw TraceFileError(path: path, reason: error)
        }
        var information = stat()
        guard stat(path, &information) == 0 else { return }
        let size = Int(information.st_size)
        while reader.bytesRead < size, !reader.isFinished, (try? reader.nextBatch(body)) == true {}
    }

    /// The model of the trace at `path` as far as it is written now.
    static func model(path: String, options: TraceModelOptions) throws(TraceFileError) -> TraceModel {
        let builder = TraceModelBuilder(options: options)
        try forEachBatch(path: path) { builder.consume($0) }
        return builder.finish()
    }

    /// As `TraceFile.model(path:at:)` (what `state --at` reads), over what is written now:
    /// the model up to `moment`, with values, and the moment resolved to a time.
    static func model(path: String, at moment: TraceMoment) throws(StateError) -> (TraceModel, ResolvedMoment) {
        var resolved = ResolvedMoment(moment: moment, timestamp: 0, action: nil)
        switch moment {
        case let .time(time):
            resolved = ResolvedMoment(moment: moment, timestamp: time, action: nil)
        case let .afterAction(ordinal):
            var finder = ActionEndFinder(ordinal: ordinal)
            do {
                try forEachBatch(path: path) { finder.consume($0) }
            } catch {
                throw .file(error)
            }
            switch finder.result() {
            case let .success(end): resolved = ResolvedMoment(moment: moment, timestamp: end.ended, action: end)
            case let .failure(error): throw .moment(error)
            }
        }
        var options = TraceModelOptions(tracksValues: true)
        options.until = resolved.timestamp
        options.snapshotAt = resolved.timestamp
        let model: TraceModel
        do {
            model = try self.model(path: path, options: options)
        } catch {
            throw .file(error)
        }
        if case .time = moment, resolved.timestamp > model.latestTimestampRead {
            throw .moment(.pastEnd(requested: resolved.timestamp, end: model.latestTimestampRead))
        }
        return (model, resolved)
    }
}
