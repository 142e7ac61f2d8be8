extension TrendReport {
    /// The trend as Markdown for a PR comment or a CI step summary: the change
    /// points first (each naming its commit), then each scenario's series.
    public func markdown() -> String {
        let code = MarkupEscaping.markdownCode
        let cell = MarkupEscaping.markdownCell
        var lines = ["### Reactor trend", ""]
        let changes = self.changes
        if changes.isEmpty {
            lines.append("No change: every rerun count is the same in every recording, and no rerun time moved beyond its noise "
                         + "(\(scenarios.count) \(scenarios.count == 1 ? "scenario" : "scenarios"), "
                         + "\(scenarios.reduce(0) { $0 + $1.commits.count }) recordings).")
        } else {
            for scenario in scenarios where !scenario.changes.isEmpty {
                let first = scenario.changes[0]
                lines.append("**\(cell(scenario.name))** changed first at \(code(first.commit)):")
                lines.append("")
                for change in scenario.changes { lines.append("- " + cell(change.sentence)) }
                lines.append("")
            }
        }
        lines.append("")
        for scenario in scenarios {
            lines.append("| \(cell(scenario.name)) | " + scenario.commits.map { code($0) }.joined(separator: " | ") + " |")
            lines.append("| --- |" + String(repeating: " ---: |", count: scenario.commits.count))
            lines.append("| reruns | " + scenario.reruns.map(String.init).joined(separator: " | ") + " |")
            lines.append("| unneeded | " + scenario.unneededReruns.map { $0.map(String.init) ?? "–" }.joined(separator: " | ") + " |")
            lines.append("| rerun time | " + scenario.rerunNanoseconds.map { DurationText.format($0) }.joined(separator: " | ") + " |")
            lines.append("")
        }
        lines.append("<sub>Counts are exact: a change is the first recording whose count differs from the one before. "
                     + "Times: \(Self.timeChangeRule).</sub>")
        return lines.joined(separator: "\n") + "\n"
    }
}
