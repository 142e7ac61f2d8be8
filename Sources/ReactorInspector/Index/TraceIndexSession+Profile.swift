import ReactorTraceFormat

extension TraceIndexSession {
    /// The whole trace's profile (what `report`, `check` and `diff` read) and
    /// the report's action timeline when `actionTimeline`, with the report of
    /// reading the trace: from the index when it keeps a profile built with the
    /// standard limits; otherwise by a pass, which leaves the profile in the
    /// index (with the plain model too when the index lacks it), the action
    /// timeline included whether or not this question shows it.
    func profile(actionTimeline wanted: Bool, progress: ((Int) -> Void)?) throws(TraceFileError)
        -> (figures: ProfileFigures, actionTimeline: ActionTimeline?, report: TraceReadReport) {
        if let index, let kept = index.profile, kept.limits == .standard {
            return (kept.figures, wanted ? kept.actionTimeline : nil, index.readReport(path: tracePath))
        }
        let timeline = ActionTimeline()
        let profile = TraceProfile(actionTimeline: timeline)
        // The plain model beside it only when the index will need one and can keep it; its builder
        // tracks values for the snapshots the index keeps with it (left out of the model).
        let plain = index?.model == nil && IndexKey.current != nil
            ? TraceModelBuilder(options: TraceModelBuilder.checkpointOptions, numbersActions: true) : nil
        var kept: IndexedProfile?
        func finish(_ report: TraceReadReport) -> IndexedProfile {
            if let kept { return kept }
            timeline.finish()
            profile.countUnreadEvents(of: report)
            let made = IndexedProfile(profile: profile, timeline: timeline)
            kept = made
            return made
        }
        let keeping: ((TraceReadReport) -> TraceModel)? = plain.map { builder in
            { report in
                var model = builder.finish()
                model.forgetValues()
                model.skippedEvents = report.skippedEvents
                model.clockEvents = report.clockEvents
                return model
            }
        }
        let (report, _) = try forEachBatch(progress: progress, until: { nil }, keeping: keeping, profiling: finish,
                                           snapshotting: plain) {
            profile.consume($0)
        }
        let made = finish(report)
        return (made.figures, wanted ? made.actionTimeline : nil, report)
    }
}

extension TraceFile {
    /// The profile of the whole trace at `path`, as a ``TraceProfile`` read to
    /// its end finds it (``ProfileFigures``), with the report's
    /// ``ActionTimeline`` when `actionTimeline` (nil otherwise), and how
    /// reading went. With `index` ``TraceIndexUse/automatic(note:)`` the
    /// figures come from the index beside the trace when it keeps them (a
    /// first question reads the trace and leaves them there); with
    /// ``TraceIndexUse/none``, from a pass.
    public static func profile(path: String, index: TraceIndexUse, actionTimeline: Bool = false,
                               progress: ((Int) -> Void)? = nil) throws(TraceFileError)
        -> (figures: ProfileFigures, actionTimeline: ActionTimeline?, report: TraceReadReport) {
        guard case let .automatic(note) = index else {
            let timeline = actionTimeline ? ActionTimeline() : nil
            let profile = TraceProfile(actionTimeline: timeline)
            // A batch at a time, read in place: no event (and its strings) built for each.
            let report = try forEachBatch(path: path, progress: progress) { profile.consume($0) }
            timeline?.finish()
            profile.countUnreadEvents(of: report)
            return (profile.figures, timeline, report)
        }
        return try TraceIndexSession(tracePath: path, note: note).profile(actionTimeline: actionTimeline,
                                                                          progress: progress)
    }
}
