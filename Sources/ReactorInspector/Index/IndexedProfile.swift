/// The profile an index keeps: what a ``TraceProfile`` of the whole trace
/// found (``ProfileFigures``, whose model is the index's plain model, kept
/// once) and the report's ``ActionTimeline``, with the limits they were built
/// with and their encoding. Two are equal when they encode to the same bytes.
struct IndexedProfile: Sendable, Equatable {
    let figures: ProfileFigures
    /// The action timeline's steps, as the report shows them.
    let actionSteps: [ActionTimeline.Step]
    /// Actions beyond the timeline's limit.
    let omittedActions: Int
    /// Whether the action timeline saw values.
    let actionsHaveValues: Bool
    /// The limits the profile and the timeline were built with: a question asking for others reads the trace.
    let limits: Limits
    let bytes: [UInt8]

    /// How much of the trace a profile keeps: ``TraceProfile/maximumTimelineSpans``,
    /// ``ActionTimeline/limit`` and ``ActionTimeline/changeLimit``.
    struct Limits: Sendable, Equatable {
        var timelineSpans: Int
        var actions: Int
        var changesPerAction: Int

        /// The limits of a default profile and timeline (what `report`, `check` and `diff` build).
        static let standard = Limits(timelineSpans: TraceProfile().maximumTimelineSpans, actions: ActionTimeline().limit,
                                     changesPerAction: ActionTimeline().changeLimit)
    }

    /// The timeline as the report reads it.
    var actionTimeline: ActionTimeline {
        ActionTimeline(limit: limits.actions, changeLimit: limits.changesPerAction, steps: actionSteps,
                       omitted: omittedActions, hasValues: actionsHaveValues)
    }

    /// Keeps what `profile` (read to its end, with `timeline` reading the same import, finished) found.
    init(profile: TraceProfile, timeline: ActionTimeline) {
        self.init(figures: profile.figures, actionSteps: timeline.steps, omittedActions: timeline.omitted,
                  actionsHaveValues: timeline.hasValues,
                  limits: Limits(timelineSpans: profile.maximumTimelineSpans, actions: timeline.limit,
                                 changesPerAction: timeline.changeLimit))
    }

    init(figures: ProfileFigures, actionSteps: [ActionTimeline.Step], omittedActions: Int, actionsHaveValues: Bool,
         limits: Limits) {
        self.figures = figures
        self.actionSteps = actionSteps
        self.omittedActions = omittedActions
        self.actionsHaveValues = actionsHaveValues
        self.limits = limits
        var fields = IndexFieldWriter()
        Self.encode(figures: figures, actionSteps: actionSteps, omittedActions: omittedActions,
                    actionsHaveValues: actionsHaveValues, limits: limits, to: &fields)
        bytes = fields.bytes
    }

    static func == (lhs: Self, rhs: Self) -> Bool { lhs.bytes == rhs.bytes }
}
