extension BudgetCheck {
    private struct Document: Encodable {
        struct Offender: Encodable {
            var name: String
            var measured: String
        }

        struct Rule: Encodable {
            var rule: String
            var subject: String
            var limit: String
            var measured: String?
            var worstOffender: String?
            var cause: [String]
            var matched: Int
            var offenders: [Offender]
            var passed: Bool
        }

        var budget: String
        var trace: String
        var passed: Bool
        var rules: [Rule]
        var computations: [ComputationRecord]
    }

    /// The check as JSON (`check --json`): whether it passed, each rule's
    /// outcome, and the trace's computations as the shared records the rules
    /// were measured on (docs/METRICS.md).
    public func json(budgetName: String, traceName: String, computations: [ComputationRecord]) throws -> String {
        let rules = results.map {
            Document.Rule(rule: $0.rule, subject: $0.subject, limit: $0.limit, measured: $0.measured,
                          worstOffender: $0.worstOffender, cause: $0.cause, matched: $0.matched,
                          offenders: $0.offenders.map { Document.Offender(name: $0.name, measured: $0.measured) },
                          passed: $0.passed)
        }
        return try JSONText.encode(Document(budget: budgetName, trace: traceName, passed: passed, rules: rules,
                                            computations: computations))
    }
}
