/// The outcome of one budget rule over a trace: one CI test case.
public struct BudgetRuleResult: Sendable, Equatable {
    /// The rule's JSON path and key, e.g. `computations[0].maxReruns` or `forbid.runaway`.
    public var rule: String
    /// What the rule limits, in words, e.g. `reruns of computations matching "TodoList*"`.
    public var subject: String
    /// The limit as written, formatted with its unit (`50`, `2 ms`).
    public var limit: String
    /// The worst measured value, formatted like the limit (nil when nothing matched).
    public var measured: String?
    /// The node or action that measured worst.
    public var worstOffender: String?
    /// The causal chain behind the worst offender, as readable steps.
    public var cause: [String]
    /// How many computations, actions or flushes the rule applied to.
    public var matched: Int
    /// Offenders past the limit, worst first, with their measured values (at most ten).
    public var offenders: [(name: String, measured: String)]
    /// True when within the limit.
    public var passed: Bool

    /// Creates a result.
    public init(rule: String, subject: String, limit: String, measured: String?, worstOffender: String?,
                cause: [String], matched: Int, offenders: [(name: String, measured: String)], passed: Bool) {
        self.rule = rule
        self.subject = subject
        self.limit = limit
        self.measured = measured
        self.worstOffender = worstOffender
        self.cause = cause
        self.matched = matched
        self.offenders = offenders
        self.passed = passed
    }

    /// Equal when every field is.
    public static func == (lhs: BudgetRuleResult, rhs: BudgetRuleResult) -> Bool {
        lhs.rule == rhs.rule && lhs.subject == rhs.subject && lhs.limit == rhs.limit && lhs.measured == rhs.measured
            && lhs.worstOffender == rhs.worstOffender && lhs.cause == rhs.cause && lhs.matched == rhs.matched
            && lhs.offenders.elementsEqual(rhs.offenders) { $0 == $1 } && lhs.passed == rhs.passed
    }

    /// The violation line: what, the limit, the measured value and the worst offender.
    public var violationLine: String {
        let offender = worstOffender.map { "\"\($0)\" " } ?? ""
        let more = offenders.count > 1 ? " (the worst of \(offenders.count) over the limit)" : ""
        return "\(rule): \(subject): \(offender)measured \(measured ?? "nothing"), limit \(limit)\(more)"
    }
}
