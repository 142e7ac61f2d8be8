extension BudgetCheck {
    /// JUnit XML with one test case per rule, a `<failure>` on each violated
    /// one, for CI dashboards (GitLab, Jenkins, GitHub test reporters).
    public func junitXML(budgetName: String, traceName: String) -> String {
        let failures = violations.count
        let suiteName = MarkupEscaping.xml("reactor budget \(budgetName) on \(traceName)")
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites name=\"reactor-inspect check\" tests=\"\(results.count)\" failures=\"\(failures)\" errors=\"0\">\n"
        xml += "  <testsuite name=\"\(suiteName)\" tests=\"\(results.count)\" failures=\"\(failures)\" errors=\"0\" skipped=\"0\">\n"
        for result in results {
            let name = MarkupEscaping.xml(result.rule)
            xml += "    <testcase classname=\"reactor.budget\" name=\"\(name)\">\n"
            if result.passed {
                let measured = result.measured.map { "measured \($0)" } ?? "matched nothing"
                xml += "      <system-out>\(MarkupEscaping.xml("\(result.subject): \(measured), limit \(result.limit)"))</system-out>\n"
            } else {
                var details = [result.violationLine]
                details += result.offenders.map { "\($0.name): \($0.measured)" }
                if !result.cause.isEmpty { details.append("why: " + result.cause.joined(separator: " → ")) }
                xml += "      <failure type=\"BudgetExceeded\" message=\"\(MarkupEscaping.xml(result.violationLine))\">"
                xml += MarkupEscaping.xml(details.joined(separator: "\n"))
                xml += "</failure>\n"
            }
            xml += "    </testcase>\n"
        }
        xml += "  </testsuite>\n</testsuites>\n"
        return xml
    }
}
