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
    /// each node's latest value. For `action:N` the importer finds when that
    /// action ended as it reads (``TraceModelOptions/untilAction``), so one
    /// pass usually does; see ``model(at:options:pass:)`` for when it takes two.
    /// Throws for an unreadable trace and a moment it does not have (`action:N`
    /// beyond its actions, a time past its end) and, when `requiringValues`,
    /// for a trace recorded without values. With `index` ``TraceIndexUse/automatic(note:)``
    /// the passes read only as far as the moment when the index beside the
    /// trace fits it (the same model and report), and leave one when it does not.
    public static func model(path: String, at moment: TraceMoment,
                             options: TraceModelOptions = TraceModelOptions(tracksValues: true),
                             requiringValues: Bool = false, index: TraceIndexUse = .none,
                             progress: ((Int) -> Void)? = nil) throws(StateError)
        -> (TraceModel, ResolvedMoment, TraceReadReport) {
        // A second pass's progress goes on from the first's: the count of events read only grows.
        var eventsReadBefore = 0
        let session = index.session(tracePath: path)
        return try model(at: moment, options: options) { builder throws(StateError) in
            let built: (TraceModel, TraceReadReport)
            let offset = eventsReadBefore
            let passProgress: ((Int) -> Void)? = progress.map { report in { report(offset + $0) } }
            do throws(TraceFileError) {
                if let session {
                    built = try session.model(builder: builder, progress: passProgress)
                } else {
                    built = try model(path: path, builder: builder, progress: passProgress)
                }
            } catch {
                throw .file(error)
            }
            eventsReadBefore += built.1.events
            if requiringValues && !built.0.hasValues { throw .noValues(path: path) }
            return built
        }
    }

    /// The model as it stood at `moment`, from `pass`, which feeds the whole
    /// trace to the builder it is given and returns the builder's model.
    ///
    /// For `action:N` the moment is known only once the action's end (and the
    /// flush it ran) has been read. Threads' chunks interleave in the file out
    /// of time order, so another thread's events later than the moment may
    /// have been applied before it was known; then a second pass applies
    /// exactly the events up to the moment, as for a time.
    static func model<Report>(at moment: TraceMoment, options: TraceModelOptions,
                              pass: (TraceModelBuilder) throws(StateError) -> (TraceModel, Report))
        throws(StateError) -> (TraceModel, ResolvedMoment, Report) {
        switch moment {
        case let .time(time):
            var options = options
            options.until = time
            options.snapshotAt = time
            let (model, report) = try pass(TraceModelBuilder(options: options))
            if time > model.latestTimestampRead {
                throw .moment(.pastEnd(requested: time, end: model.latestTimestampRead))
            }
            return (model, ResolvedMoment(moment: moment, timestamp: time, action: nil), report)
        case let .afterAction(ordinal):
            var actionOptions = options
            actionOptions.untilAction = ordinal
            let builder = TraceModelBuilder(options: actionOptions)
            var (model, report) = try pass(builder)
            let end: ActionEnd
            switch builder.actionMoment {
            case let .success(found): end = found
            case let .failure(error): throw .moment(error)
            case nil: preconditionFailure("the builder was asked for an action's moment")
            }
            if model.lastTimestamp > end.ended {
                (model, _, report) = try Self.model(at: .time(end.ended), options: options, pass: pass)
            }
            return (model, ResolvedMoment(moment: moment, timestamp: end.ended, action: end), report)
        case .end:
            let (model, report) = try pass(TraceModelBuilder(options: options))
            let (atEnd, resolved) = modelAtEnd(model)
            return (atEnd, resolved, report)
        }
    }

    /// `model`, built from a whole trace (or all of it read so far: a
    /// follower's ``LiveTrace/model()``), as ``model(path:at:options:requiringValues:index:progress:)``
    /// gives it for ``TraceMoment/end``: with the graph as it stands at its last event.
    /// The same model as that pass when `model` was built with the same options
    /// (a follower's: values tracked, as `state` and `graph --at` build them).
    public static func modelAtEnd(_ model: TraceModel) -> (TraceModel, ResolvedMoment) {
        var model = model
        let last = model.latestTimestampRead
        if model.snapshot == nil {
            let live = Set(model.nodes.lazy.filter { $0.isAlive(at: last) }.map(\.id))
            model.snapshot = TraceSnapshot(timestamp: last, liveNodes: live, edges: model.finalEdges)
        }
        return (model, ResolvedMoment(moment: .end, timestamp: last, action: nil))
    }
}
