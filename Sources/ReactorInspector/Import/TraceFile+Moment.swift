/// A moment of a trace resolved to a time.
public struct ResolvedMoment: Sendable, Equatable {
    /// What was asked for.
    public let moment: TraceMoment
    /// Its time, in trace nanoseconds.
    public let timestamp: UInt64
    /// For `action:N`, that action.
    public let action: ActionEnd?

    /// A moment resolved by a reader of one's own (``TraceFile/model(path:at:options:requiringValues:progress:)`` resolves its own).
    public init(moment: TraceMoment, timestamp: UInt64, action: ActionEnd?) {
        self.moment = moment
        self.timestamp = timestamp
        self.action = action
    }
}

extension TraceFile {
    /// Builds the model of the trace at `path` as it stood at `moment`, with
    /// each node's latest value: one pass for a time, two for `action:N` (the
    /// first finds when that action ended). Throws for an unreadable trace
    /// and a moment it does not have (`action:N` beyond its actions, a time
    /// past its end) and, when `requiringValues`, for a trace recorded without values.
    public static func model(path: String, at moment: TraceMoment,
                             options: TraceModelOptions = TraceModelOptions(tracksValues: true),
                             requiringValues: Bool = false,
                             progress: ((Int) -> Void)? = nil) throws(StateError)
        -> (TraceModel, ResolvedMoment, TraceReadReport) {
        var resolved: ResolvedMoment
        switch moment {
        case let .time(time):
            resolved = ResolvedMoment(moment: moment, timestamp: time, action: nil)
        case let .afterAction(ordinal):
            var finder = ActionEndFinder(ordinal: ordinal)
            do {
                _ = try forEachBatch(path: path, progress: progress) { finder.consume($0) }
            } catch {
                throw .file(error)
            }
            if requiringValues && !finder.sawValues { throw .noValues(path: path) }
            switch finder.result() {
            case let .success(end): resolved = ResolvedMoment(moment: moment, timestamp: end.ended, action: end)
            case let .failure(error): throw .moment(error)
            }
        }
        var options = options
        options.until = resolved.timestamp
        options.snapshotAt = resolved.timestamp
        let built: (TraceModel, TraceReadReport)
        do {
            built = try model(path: path, options: options, progress: progress)
        } catch {
            throw .file(error)
        }
        if requiringValues && !built.0.hasValues { throw .noValues(path: path) }
        if case .time = moment, resolved.timestamp > built.0.latestTimestampRead {
            throw .moment(.pastEnd(requested: resolved.timestamp, end: built.0.latestTimestampRead))
        }
        return (built.0, resolved, built.1)
    }
}
