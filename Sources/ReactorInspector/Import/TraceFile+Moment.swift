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
    /// each node's latest value, in one pass (for `action:N` the importer
    /// finds when that action ended as it goes: ``TraceModelOptions/untilAction``).
    /// Throws for an unreadable trace and a moment it does not have (`action:N`
    /// beyond its actions, a time past its end) and, when `requiringValues`,
    /// for a trace recorded without values.
    public static func model(path: String, at moment: TraceMoment,
                             options: TraceModelOptions = TraceModelOptions(tracksValues: true),
                             requiringValues: Bool = false,
                             progress: ((Int) -> Void)? = nil) throws(StateError)
        -> (TraceModel, ResolvedMoment, TraceReadReport) {
        var options = options
        switch moment {
        case let .time(time):
            options.until = time
            options.snapshotAt = time
        case let .afterAction(ordinal):
            options.untilAction = ordinal
        }
        let builder = TraceModelBuilder(options: options)
        let built: (TraceModel, TraceReadReport)
        do {
            built = try model(path: path, builder: builder, progress: progress)
        } catch {
            throw .file(error)
        }
        let model = built.0
        if requiringValues && !model.hasValues { throw .noValues(path: path) }
        let resolved: ResolvedMoment
        switch moment {
        case let .time(time):
            if time > model.latestTimestampRead {
                throw .moment(.pastEnd(requested: time, end: model.latestTimestampRead))
            }
            resolved = ResolvedMoment(moment: moment, timestamp: time, action: nil)
        case .afterAction:
            switch builder.actionMoment {
            case let .success(end): resolved = ResolvedMoment(moment: moment, timestamp: end.ended, action: end)
            case let .failure(error): throw .moment(error)
            case nil: preconditionFailure("the builder was asked for an action's moment")
            }
        }
        return (model, resolved, built.1)
    }
}
