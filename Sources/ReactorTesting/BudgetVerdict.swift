import ReactorInspector
import Testing

/// The outcome of a budget check in a test, as one line: `#expect(verdict.passed)`
/// fails with `(verdict → list reran 14 times, budget 10).passed → false`.
public struct BudgetVerdict: Sendable, CustomStringConvertible, CustomTestStringConvertible {
    /// The full check, one result per rule (what `reactor-inspect check` prints).
    public let check: BudgetCheck
    /// Why the verdict fails before any rule is evaluated (a name the trace does not hold).
    public let problem: String?

    init(check: BudgetCheck, problem: String? = nil) {
        self.check = check
        self.problem = problem
    }

    /// True when every rule is within its limit.
    public var passed: Bool { problem == nil && check.passed }

    /// One sentence per failed rule, e.g. `list reran 14 times, budget 10`.
    public var failures: [String] {
        (problem.map { [$0] } ?? []) + check.violations.map(\.sentence)
    }

    /// One line: the failures joined by `; `, or `within budget (N rules)`.
    public var description: String {
        let line = passed ? "within budget (\(check.results.count) \(check.results.count == 1 ? "rule" : "rules"))"
            : failures.joined(separator: "; ")
        // Names are data: a test log shows them, never acts on them.
        return TerminalEscaping.escape(line)
    }

    /// The same line, for Swift Testing's failure messages.
    public var testDescription: String { description }
}
