import ReactorTraceFormat

extension WhyReport {
    /// The explanation as text: chains grouped by shape, then each run.
    public func text(style: TextStyle = .plain) -> String {
        let target = TerminalEscaping.escape(self.target)
        guard let kind else { return "No computation named '\(target)' in this trace.\n" }
        let runs = firstRuns + reruns
        var head = "\(kind.label) \(style.bold(target))"
        if let site { head += " (\(TerminalEscaping.escape(site)))" }
        if instances.count > 1 { head += " (\(instances.count) instances)" }
        head += ": \(runs) run\(runs == 1 ? "" : "s"), \(reruns) rerun\(reruns == 1 ? "" : "s")"
        if stops > 0 {
            let reasons = InvalidationCause.allCases.compactMap { cause in
                stopsByCause[cause.label].map { "\($0) \(cause.stopReason)" }
            }
            head += ", \(stops) stop\(stops == 1 ? "" : "s")"
            if !reasons.isEmpty { head += " (" + reasons.joined(separator: ", ") + ")" }
        }
        var out = head + "\n" + issuesText(style: style)
        if patterns.isEmpty { return out + "  It never ran in this trace.\n" }
        out += "\n" + style.bold("Causes, most frequent first") + "\n"
        for pattern in patterns {
            out += "  " + style.red(String(pattern.count).leftPadded(to: 5) + "×") + "  "
                + colored(pattern.chain, style: style) + "\n"
        }
        if ungroupedEntries > 0 { out += style.dim("  … \(ungroupedEntries) more with other chains") + "\n" }
        out += "\n" + style.bold("Each run") + (omittedEntries > 0 ? style.dim(" (first \(entries.count))") : "") + "\n"
        for (number, entry) in entries.enumerated() {
            let label: String
            switch entry.event {
            case .firstRun: label = "first run"
            case .rerun: label = "rerun"
            case .stopped: label = "stopped"
            }
            out += "  " + style.dim("#\(number + 1)".leftPadded(to: 4) + "  " + DurationText.formatTime(entry.timestamp)
                                    .leftPadded(to: 12) + "  " + label.padded(to: 9)) + "  "
                + colored(entry.chain, style: style) + "\n"
        }
        if omittedEntries > 0 {
            out += style.dim("  … \(omittedEntries) more (use --limit N to list more)") + "\n"
        }
        return out
    }

    private func colored(_ chain: [WhyStep], style: TextStyle) -> String {
        chain.displayedSteps.map { step, text in
            let text = TerminalEscaping.escape(text)
            return switch step {
            case .action: style.cyan(text)
            case .changed: style.yellow(text)
            case .ran: style.green(text)
            case .unknown, .elided: style.dim(text)
            case .invalidated: text
            }
        }.joined(separator: style.dim(" → "))
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }

    func padded(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
