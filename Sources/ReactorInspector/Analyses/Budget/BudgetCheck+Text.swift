extension BudgetCheck {
    /// The terminal report: one line per violation with its cause indented
    /// below it, then a one-line verdict. Passing rules are listed only with `verbose`.
    public func text(budgetName: String, traceName: String, verbose: Bool = false) -> String {
        var lines: [String] = []
        let violations = self.violations
        for result in results {
            if !result.passed {
                lines.append("✗ \(result.violationLine)")
                for offender in result.offenders.dropFirst().prefix(4) {
                    lines.append("    also \"\(offender.name)\": \(offender.measured)")
                }
                if !result.cause.isEmpty {
                    lines.append("    why: " + result.cause.joined(separator: " → "))
                }
            } else if verbose {
                let measured = result.measured.map { "measured \($0)" } ?? "matched nothing"
                lines.append("✓ \(result.rule): \(result.subject): \(measured), limit \(result.limit)")
            }
        }
        let unmatched = results.filter { $0.matched == 0 && !$0.rule.hasPrefix("forbid.") && $0.rule != "maxFlushMilliseconds" }
        for result in unmatched where !verbose {
            lines.append("note: \(result.rule) matched no \(result.rule.hasPrefix("actions") ? "action" : "computation") in the trace")
        }
        if violations.isEmpty {
            lines.append("\(traceName) is within budget \(budgetName): \(results.count) rules passed")
        } else {
            lines.append("\(traceName) exceeds budget \(budgetName): \(violations.count) of \(results.count) rules failed")
        }
        // Names are data: nothing in them reaches the terminal raw.
        return lines.map(TerminalEscaping.escape).joined(separator: "\n") + "\n"
    }
}
