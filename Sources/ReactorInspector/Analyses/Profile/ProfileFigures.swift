import ReactorTraceFormat

/// What a ``TraceProfile`` found over a whole trace, as plain values: every
/// figure `report`, `check` and `diff` read. A pass makes it from the profile
/// (``TraceProfile/figures``); the index keeps it (docs/INSPECT.md, "The
/// index"), so that a later question reads it instead of the trace.
public struct ProfileFigures: Sendable {
    /// The one model of the trace (the figures every view shares).
    public let model: TraceModel
    /// Every computation name, sorted by name (``TraceProfile/computations``).
    public let computations: [ComputationProfile]
    /// Every action name that ran, sorted by `Store.action` (``TraceProfile/actions``).
    public let actions: [ActionProfile]
    /// Issues per kind, in the order of ``TraceIssueKind``.
    public let issues: [IssueProfile]
    /// Flush durations.
    public let flushes: FlushProfile
    /// Every rerun's duration (first runs excluded).
    public let rerunHistogram: RerunHistogram
    /// Flushes and actions in time order of their end, as many as the profile keeps.
    public let timeline: [TimelineSpan]
    /// Spans not kept because the timeline was full.
    public let droppedTimelineSpans: Int
    /// Unneeded work, judged in the same pass.
    public let waste: WasteReport

    /// Figures as found; ``TraceProfile/figures`` makes them from a pass.
    public init(model: TraceModel, computations: [ComputationProfile], actions: [ActionProfile],
                issues: [IssueProfile], flushes: FlushProfile, rerunHistogram: RerunHistogram,
                timeline: [TimelineSpan], droppedTimelineSpans: Int, waste: WasteReport) {
        self.model = model
        self.computations = computations
        self.actions = actions
        self.issues = issues
        self.flushes = flushes
        self.rerunHistogram = rerunHistogram
        self.timeline = timeline
        self.droppedTimelineSpans = droppedTimelineSpans
        self.waste = waste
    }

    /// Every event of the trace (decoded, skipped or clock), as its end block counts them.
    public var eventCount: Int { model.totalEvents }
    /// The first event's timestamp.
    public var firstTimestamp: UInt64? { model.eventCount == 0 ? nil : model.firstTimestamp }
    /// The latest timestamp seen.
    public var lastTimestamp: UInt64 { model.lastTimestamp }
    /// Thread indexes seen.
    public var threads: Set<UInt32> { Set(model.threadIndexes) }
    /// Nanoseconds from the first to the last event.
    public var durationNanoseconds: UInt64 { lastTimestamp - (firstTimestamp ?? lastTimestamp) }

    /// The issues of `kind` (count 0 when none occurred).
    public func issues(of kind: TraceIssueKind) -> IssueProfile {
        issues.first { $0.kind == kind } ?? IssueProfile(kind: kind, count: 0, firstMessage: "", firstNode: "")
    }
}

extension TraceProfile {
    /// What the profile found, as plain values (call once the trace is read).
    public var figures: ProfileFigures {
        ProfileFigures(model: model, computations: computations, actions: actions, issues: issues, flushes: flushes,
                       rerunHistogram: rerunHistogram, timeline: timeline, droppedTimelineSpans: droppedTimelineSpans,
                       waste: WasteReport(profile: self))
    }
}
