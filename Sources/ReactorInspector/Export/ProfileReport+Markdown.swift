extension ProfileReport {
    /// The compact Markdown variant for PR comments: a one-line summary, the
    /// hottest computations, the actions, the longest flush and any issues.
    public func markdown(limit: Int = 10) -> String {
        let totals = self.totals
        let cell = MarkupEscaping.markdownCell
        let code = MarkupEscaping.markdownCode
        var lines = [
            "### Reactor profile: \(cell(traceName))",
            "",
            "\(DurationText.format(profile.durationNanoseconds)) traced · \(CountText.of(profile.eventCount, "event")) · "
                + "**\(CountText.of(totals.reruns, "rerun"))** (\(DurationText.format(totals.rerunNanoseconds))) in \(CountText.of(totals.computations, "computation")) · "
                + "\(CountText.of(totals.actions, "action")) · \(CountText.of(profile.flushes.count, "flush", plural: "flushes"))"
                + (profile.flushes.count > 0 ? " (longest \(DurationText.format(profile.flushes.maxNanoseconds)))" : "")
                + " · \(totals.issues == 0 ? "no issues" : "⚠️ " + CountText.of(totals.issues, "issue"))",
            "",
        ]
        let hot = hotComputations
        if !hot.isEmpty {
            lines.append("| Computation | Kind | Runs | Reruns | Total | Self | Mean | Max |")
            lines.append("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
            for computation in hot.prefix(limit) {
                let stats = computation.stats
                let site = computation.site.map { " (\(code($0)))" } ?? ""
                lines.append("| \(code(computation.name))\(site) | \(computation.kind) | \(stats.runs) | \(stats.reruns) | "
                             + "\(DurationText.format(stats.totalNanoseconds)) | \(DurationText.format(stats.selfNanoseconds)) | "
                             + "\(DurationText.format(stats.meanNanoseconds)) | \(DurationText.format(stats.maxNanoseconds)) |")
            }
            if hot.count > limit { lines.append(""); lines.append("… \(hot.count - limit) more computations reran.") }
            lines.append("")
        }
        let actions = rankedActions
        if !actions.isEmpty {
            lines.append("| Action | Calls | Reruns caused | Worst call | Total |")
            lines.append("| --- | ---: | ---: | ---: | ---: |")
            for action in actions.prefix(limit) {
                lines.append("| \(code(action.qualifiedName)) | \(action.invocations) | \(action.rerunsCaused) | "
                             + "\(action.maxRerunsPerInvocation) | \(DurationText.format(action.totalNanoseconds)) |")
            }
            lines.append("")
        }
        if let top = hot.first, !top.latestRerunCause.isEmpty {
            lines.append("**Why \(code(top.name)) reran last:** " + top.latestRerunCause.map(cell).joined(separator: " → "))
            lines.append("")
        }
        let waste = profile.waste
        let unneeded = waste.entries.filter { $0.unneededReruns > 0 }
        if !unneeded.isEmpty {
            lines.append("**\(waste.unneededReruns) unneeded reruns** (they read only values equal to their previous run's):")
            lines.append("")
            lines.append("| Computation | Unneeded | Time | Caused by | Fix |")
            lines.append("| --- | ---: | ---: | --- | --- |")
            for entry in unneeded.prefix(limit) {
                let writes = entry.writes.prefix(2).map { write in
                    code(write.node) + (write.action.map { " in " + code($0) } ?? "") + " ×\(write.reruns)"
                }.joined(separator: ", ")
                lines.append("| \(code(entry.name)) | \(entry.unneededReruns) | \(DurationText.format(entry.unneededNanoseconds)) | "
                             + "\(writes) | \(cell(entry.fix)) |")
            }
            lines.append("")
        }
        for issue in profile.issues {
            let node = issue.firstNode.isEmpty ? "" : " in \(code(issue.firstNode))"
            lines.append("- ⚠️ \(issue.count) × **\(issue.kind.budgetName)**\(node): \(cell(issue.firstMessage))")
        }
        if !profile.issues.isEmpty { lines.append("") }
        return lines.joined(separator: "\n") + "\n"
    }
}
