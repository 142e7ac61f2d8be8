extension WhyReport {
    /// Keeps the issues of `issues` that concern this computation: those
    /// reported on one of its instances, and the cycles whose path goes through it.
    public mutating func attachIssues(_ issues: [TraceIssueRecord]) {
        self.issues = issues.filter { issue in
            if issue.node != 0 && instances.contains(issue.node) { return true }
            return issue.kind == .cycle && Self.cyclePath(of: issue.message).contains(target)
        }
    }

    /// The names on a cycle, from the runtime's message
    /// ("computed values form a cycle: a -> b -> a"); empty for another message.
    static func cyclePath(of message: String) -> [String] {
        let marker = "form a cycle: "
        guard let range = message.range(of: marker) else { return [] }
        return message[range.upperBound...].split(separator: " -> ", omittingEmptySubsequences: false).map(String.init)
    }

    /// The issues section of the text form; empty when there are none.
    func issuesText(style: TextStyle) -> String {
        guard !issues.isEmpty else { return "" }
        var out = "\n" + style.bold("Issues") + "\n"
        for issue in issues {
            out += "  " + style.dim(DurationText.formatTime(issue.timestamp)) + "  "
                + style.yellow(issue.kind.label) + "  \(issue.message)\n"
        }
        return out
    }
}
