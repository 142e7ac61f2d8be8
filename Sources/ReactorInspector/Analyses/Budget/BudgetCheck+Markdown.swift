extension BudgetCheck {
    /// A Markdown summary for `GITHUB_STEP_SUMMARY` or a PR comment: a verdict
    /// line, a table of every rule, and each violation's causal chain.
    public func markdown(budgetName: String, traceName: String) -> String {
        let verdict = passed
            ? "✅ **\(MarkupEscaping.markdownCell(traceName))** is within budget \(MarkupEscaping.markdownCode(budgetName)) (\(results.count) rules)"
            : "❌ **\(MarkupEscaping.markdownCell(traceName))** exceeds budget \(MarkupEscaping.markdownCode(budgetName)): \(violations.count) of \(results.count) rules failed"
        var lines = ["### Reactor budget", "", verdict, ""]
        if !results.isEmpty {
            lines.append("| | Rule | Limit | Measured | Worst |")
            lines.append("| --- | --- | ---: | ---: | --- |")
            for result in results {
                let mark = result.passed ? "✅" : "❌"
                let measured = result.matched == 0 && result.measured == nil ? "–" : (result.measured ?? "–")
                let worst = result.worstOffender.map(MarkupEscaping.markdownCode) ?? "–"
                lines.append("| \(mark) | \(MarkupEscaping.markdownCode(result.rule)) | \(MarkupEscaping.markdownCell(result.limit)) | \(MarkupEscaping.markdownCell(measured)) | \(worst) |")
            }
            lines.append("")
        }
        for result in violations where !result.cause.isEmpty {
            lines.append("- \(MarkupEscaping.markdownCode(result.rule)): " + result.cause.map(MarkupEscaping.markdownCell).joined(separator: " → "))
        }
        if !violations.isEmpty { lines.append("") }
        return lines.joined(separator: "\n") + "\n"
    }
}
