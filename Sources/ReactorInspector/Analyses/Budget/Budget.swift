import ReactorTraceFormat

/// Performance limits a trace must stay within for CI to pass; read from the
/// JSON documented in docs/BUDGETS.md with ``Budget/parse(_:)``.
public struct Budget: Sendable, Equatable {
    /// Limits for the computations (autoruns and computeds) whose names match a glob.
    public struct ComputationRule: Sendable, Equatable {
        /// Which computations the limits apply to, matched against their names.
        public var match: Glob
        /// The most reruns (runs after the first) allowed per computation name.
        public var maxReruns: Int?
        /// The most total rerun time allowed per computation name, in milliseconds.
        public var maxTotalMilliseconds: Double?
        /// The longest single rerun allowed, in milliseconds.
        public var maxRerunMilliseconds: Double?
        /// The most unneeded reruns (reruns that read only values equal to the
        /// previous run's, ``WasteReport``) allowed per computation name; needs a trace recorded with values.
        public var maxUnneededReruns: Int?
        /// Where the rule is, as a JSON path (`computations[0]`).
        public var path: String

        /// Creates a rule.
        public init(match: Glob, maxReruns: Int? = nil, maxTotalMilliseconds: Double? = nil,
                    maxRerunMilliseconds: Double? = nil, maxUnneededReruns: Int? = nil,
                    path: String = "computations[0]") {
            self.match = match
            self.maxReruns = maxReruns
            self.maxTotalMilliseconds = maxTotalMilliseconds
            self.maxRerunMilliseconds = maxRerunMilliseconds
            self.maxUnneededReruns = maxUnneededReruns
            self.path = path
        }
    }

    /// Limits for the store actions whose names match a glob.
    public struct ActionRule: Sendable, Equatable {
        /// Which actions the limit applies to, matched against `addTodo(_:)` and `TodoStore.addTodo(_:)`.
        public var match: Glob
        /// The most reruns one invocation of the action may cause.
        public var maxRerunsPerAction: Int?
        /// Where the rule is, as a JSON path (`actions[0]`).
        public var path: String

        /// Creates a rule.
        public init(match: Glob, maxRerunsPerAction: Int? = nil, path: String = "actions[0]") {
            self.match = match
            self.maxRerunsPerAction = maxRerunsPerAction
            self.path = path
        }
    }

    /// Per-computation limits, in the order written.
    public var computations: [ComputationRule]
    /// Per-action limits, in the order written.
    public var actions: [ActionRule]
    /// The longest flush allowed, in milliseconds.
    public var maxFlushMilliseconds: Double?
    /// Issue kinds that fail the check if they occur at all.
    public var forbid: [TraceIssueKind]

    /// Creates a budget.
    public init(computations: [ComputationRule] = [], actions: [ActionRule] = [],
                maxFlushMilliseconds: Double? = nil, forbid: [TraceIssueKind] = []) {
        self.computations = computations
        self.actions = actions
        self.maxFlushMilliseconds = maxFlushMilliseconds
        self.forbid = forbid
    }
}

extension TraceIssueKind {
    /// The issue kind's name in budgets and reports (`runaway`, `uncaughtError`…).
    public var budgetName: String {
        switch self {
        case .nestedFlush: "nestedFlush"
        case .flushInsideComputation: "flushInsideComputation"
        case .uncaughtError: "uncaughtError"
        case .runaway: "runaway"
        case .cycle: "cycle"
        case .writeOutsideAction: "writeOutsideAction"
        case .misuse: "misuse"
        case .lockWait: "lockWait"
        }
    }

    /// The kind named `name` in a budget, if any.
    public init?(budgetName name: String) {
        guard let kind = TraceIssueKind.allCases.first(where: { $0.budgetName == name }) else { return nil }
        self = kind
    }
}
