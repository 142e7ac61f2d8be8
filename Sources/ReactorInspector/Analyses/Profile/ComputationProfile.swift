import ReactorTraceFormat

/// What one computation name cost over a trace. Computations that share a
/// name (the same autorun created several times) are counted together,
/// because names, unlike ids, are stable from one run to the next.
public struct ComputationProfile: Sendable, Equatable {
    /// The computation's name.
    public var name: String
    /// `autorun` or `computed`.
    public var kind: String
    /// How many computations had this name.
    public var instances: Int
    /// Its runs, added up over the instances, as the trace model counts them
    /// (the same figures as `hot`: docs/METRICS.md).
    public var stats: RunStats
    /// The causal chain of the longest rerun, as readable steps.
    public var slowestRerunCause: [String]
    /// The causal chain of the latest rerun, as readable steps.
    public var latestRerunCause: [String]
    /// The causal chain most of its reruns followed (steps compared without the call's
    /// arguments or the values; the first chain to reach that many), as readable steps:
    /// what `check`'s `why:` line for a rerun count shows.
    public var dominantRerunCause: [String] = []
    /// How many reruns followed ``dominantRerunCause`` (in its instance).
    public var dominantRerunCount = 0
    /// Where the first instance with a recorded site was created (`#fileID:#line`); nil when none was recorded.
    public var site: String?

    /// Creates a profile.
    public init(name: String, kind: String, instances: Int = 1, stats: RunStats,
                slowestRerunCause: [String] = [], latestRerunCause: [String] = [], site: String? = nil) {
        self.name = name
        self.kind = kind
        self.instances = instances
        self.stats = stats
        self.slowestRerunCause = slowestRerunCause
        self.latestRerunCause = latestRerunCause
        self.site = site
    }

    /// Every run, first runs included.
    public var runs: Int { stats.runs }
    /// Runs after the first.
    public var reruns: Int { stats.reruns }
    /// Wall time of the reruns only (first runs left out): the budgets' "rerun time".
    public var totalRerunNanoseconds: UInt64 { stats.rerunNanoseconds }
    /// The longest rerun (first runs left out).
    public var maxRerunNanoseconds: UInt64 { stats.maxRerunNanoseconds }
    /// Mean rerun time in nanoseconds (0 without reruns).
    public var meanRerunNanoseconds: UInt64 { reruns == 0 ? 0 : totalRerunNanoseconds / UInt64(reruns) }
    /// The shared record (`runs`, `totalNanoseconds`… over all runs, first included).
    public var record: ComputationRecord {
        ComputationRecord(name: name, kind: TraceNodeKind(label: kind) ?? .computation, runs: stats)
    }
}

/// What one store action cost over a trace, all invocations together.
public struct ActionProfile: Sendable, Equatable {
    /// `Store.action(_:)`, the name budgets and diffs match on.
    public var qualifiedName: String
    /// The store's name.
    public var store: String
    /// The action's name, e.g. `addTodo(_:)`.
    public var name: String
    /// How many times it ran.
    public var invocations: Int
    /// Reruns whose causal chain starts at one of its invocations.
    public var rerunsCaused: Int
    /// The most reruns a single invocation caused.
    public var maxRerunsPerInvocation: Int
    /// The argument summary of that worst invocation.
    public var worstInvocationArguments: String
    /// The computations that worst invocation reran, in order (the first eight).
    public var worstInvocationReruns: [String]
    /// Which call of the action that worst invocation was (1 for the first), 0 when no call caused a rerun.
    public var worstInvocationOrdinal: Int
    /// Wall time inside the action, in nanoseconds (its flush included when it flushed inside).
    public var totalNanoseconds: UInt64
    /// The longest invocation, in nanoseconds.
    public var maxNanoseconds: UInt64

    /// Creates a profile.
    public init(qualifiedName: String, store: String, name: String, invocations: Int, rerunsCaused: Int,
                maxRerunsPerInvocation: Int, worstInvocationArguments: String, worstInvocationReruns: [String] = [],
                worstInvocationOrdinal: Int = 0, totalNanoseconds: UInt64, maxNanoseconds: UInt64) {
        self.qualifiedName = qualifiedName
        self.store = store
        self.name = name
        self.invocations = invocations
        self.rerunsCaused = rerunsCaused
        self.maxRerunsPerInvocation = maxRerunsPerInvocation
        self.worstInvocationArguments = worstInvocationArguments
        self.worstInvocationReruns = worstInvocationReruns
        self.worstInvocationOrdinal = worstInvocationOrdinal
        self.totalNanoseconds = totalNanoseconds
        self.maxNanoseconds = maxNanoseconds
    }
}

/// Flush durations over a trace.
public struct FlushProfile: Sendable, Equatable {
    /// Completed flushes.
    public var count: Int
    /// Their total wall time in nanoseconds.
    public var totalNanoseconds: UInt64
    /// The longest flush in nanoseconds.
    public var maxNanoseconds: UInt64
    /// When the longest flush began (nanoseconds since the trace began).
    public var slowestStartNanoseconds: UInt64
    /// The computations that reran in the longest flush, most expensive first, at most five.
    public var slowestFlushReruns: [(name: String, reruns: Int, nanoseconds: UInt64)]

    /// Creates a profile.
    public init(count: Int = 0, totalNanoseconds: UInt64 = 0, maxNanoseconds: UInt64 = 0,
                slowestStartNanoseconds: UInt64 = 0, slowestFlushReruns: [(name: String, reruns: Int, nanoseconds: UInt64)] = []) {
        self.count = count
        self.totalNanoseconds = totalNanoseconds
        self.maxNanoseconds = maxNanoseconds
        self.slowestStartNanoseconds = slowestStartNanoseconds
        self.slowestFlushReruns = slowestFlushReruns
    }

    /// Equal when every field is.
    public static func == (lhs: FlushProfile, rhs: FlushProfile) -> Bool {
        lhs.count == rhs.count && lhs.totalNanoseconds == rhs.totalNanoseconds && lhs.maxNanoseconds == rhs.maxNanoseconds
            && lhs.slowestStartNanoseconds == rhs.slowestStartNanoseconds
            && lhs.slowestFlushReruns.elementsEqual(rhs.slowestFlushReruns) { $0 == $1 }
    }
}

/// The issues of one kind reported in a trace.
public struct IssueProfile: Sendable, Equatable {
    /// The kind.
    public var kind: TraceIssueKind
    /// How many were reported.
    public var count: Int
    /// The first one's message.
    public var firstMessage: String
    /// The name of the node the first one concerned ("" when none).
    public var firstNode: String

    /// Creates a profile.
    public init(kind: TraceIssueKind, count: Int, firstMessage: String, firstNode: String) {
        self.kind = kind
        self.count = count
        self.firstMessage = firstMessage
        self.firstNode = firstNode
    }
}

/// A flush or an action on the timeline of a trace.
public struct TimelineSpan: Sendable, Equatable {
    /// What the span is.
    public enum Kind: String, Sendable { case flush, action }
    /// What the span is.
    public var kind: Kind
    /// The recording thread's index.
    public var thread: UInt32
    /// Start, in nanoseconds since the trace began.
    public var start: UInt64
    /// End, in nanoseconds since the trace began.
    public var end: UInt64
    /// The action's qualified name, or `flush`.
    public var label: String
    /// Reruns inside the span (for flushes) or caused by it (for actions: those
    /// charged to the call, including the flush its end ran, as ``ActionProfile`` counts them).
    public var reruns: Int
}
