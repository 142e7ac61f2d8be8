import ReactorTraceFormat

/// A self-contained profiling report over one trace, as HTML (one file,
/// nothing loaded from the network: styles and SVG charts inline) or as
/// compact Markdown for a PR comment.
public struct ProfileReport {
    /// The profile's figures the report shows.
    public let profile: ProfileFigures
    /// The trace's display name (usually its file name).
    public let traceName: String
    /// The dependency graph as SVG (from the Graphviz renderer), embedded in the HTML; nil leaves it out.
    public let graphSVG: String?
    /// How many computations the hot table lists.
    public let hotLimit: Int
    /// Each action with what it changed and the reruns up to it (HTML only); nil leaves it out.
    public let actionTimeline: ActionTimeline?

    /// Creates a report of a profile read to its end.
    public init(profile: TraceProfile, traceName: String, graphSVG: String? = nil, hotLimit: Int = 20,
                actionTimeline: ActionTimeline? = nil) {
        self.init(profile: profile.figures, traceName: traceName, graphSVG: graphSVG, hotLimit: hotLimit,
                  actionTimeline: actionTimeline)
    }

    /// Creates a report of a profile's figures (as a pass or the index gives them).
    public init(profile: ProfileFigures, traceName: String, graphSVG: String? = nil, hotLimit: Int = 20,
                actionTimeline: ActionTimeline? = nil) {
        self.actionTimeline = actionTimeline
        self.profile = profile
        self.traceName = traceName
        self.graphSVG = graphSVG
        self.hotLimit = hotLimit
    }

    /// Computations that reran, most total time first (then most reruns).
    public var hotComputations: [ComputationProfile] {
        profile.computations.filter { $0.reruns > 0 }.sorted {
            if $0.stats.totalNanoseconds != $1.stats.totalNanoseconds { return $0.stats.totalNanoseconds > $1.stats.totalNanoseconds }
            if $0.reruns != $1.reruns { return $0.reruns > $1.reruns }
            return $0.name < $1.name
        }
    }

    /// Actions, most reruns caused first (then most time).
    public var rankedActions: [ActionProfile] {
        profile.actions.sorted {
            if $0.rerunsCaused != $1.rerunsCaused { return $0.rerunsCaused > $1.rerunsCaused }
            if $0.totalNanoseconds != $1.totalNanoseconds { return $0.totalNanoseconds > $1.totalNanoseconds }
            return $0.qualifiedName < $1.qualifiedName
        }
    }

    /// Totals shown at the top of both formats.
    struct Totals {
        var computations: Int
        var reruns: Int
        var rerunNanoseconds: UInt64
        var actions: Int
        var issues: Int
    }

    var totals: Totals {
        let computations = profile.computations
        return Totals(
            computations: computations.reduce(0) { $0 + $1.instances },
            reruns: computations.reduce(0) { $0 + $1.reruns },
            rerunNanoseconds: computations.reduce(0) { $0 + $1.totalRerunNanoseconds },
            actions: profile.actions.reduce(0) { $0 + $1.invocations },
            issues: profile.issues.reduce(0) { $0 + $1.count })
    }
}
