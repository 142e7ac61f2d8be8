import Foundation

extension LiveSnapshot {
    /// The snapshot as `top` shows it: a status line, the hot table (rates in
    /// the last interval and p99 in it and in all), the latest actions with
    /// what they changed, and the issues. Names are escaped for the terminal
    /// and cut to fit `width` columns; at most `height` lines (nil: no limit).
    public func text(style: TextStyle = .plain, width: Int = 100, height: Int? = nil) -> String {
        let nameWidth = max(12, min(48, width - 62))
        var out = style.bold("reactor-inspect top") + "  " + Self.fit(TerminalEscaping.escape(path), 60) + "  "
        out += statusText(style: style) + "\n"
        out += "events \(events) (\(Self.rate(eventsPerSecond))/s)  nodes \(nodes)  edges \(liveEdges)  "
        out += "duration \(DurationText.format(durationNanoseconds))  interval \(DurationText.format(intervalNanoseconds))\n"
        if !statusDetail.isEmpty { out += Self.fit(TerminalEscaping.escape(statusDetail), width) + "\n" }
        out += "\n" + style.bold("Hot computations") + " (\(hot.count) of \(computations), by reruns in the interval)\n"
        if hot.isEmpty {
            out += "  none yet\n"
        } else {
            var columns = TextColumns([.left, .right, .right, .right, .right, .right, .right])
            columns.add(["name", "reruns/s", "time/s", "p99 now", "p99 all", "reruns", "total"].map { style.dim($0) })
            for row in hot {
                let name = Self.fit(TerminalEscaping.escape(row.name), nameWidth) + (row.instances > 1 ? " ×\(row.instances)" : "")
                let rate = Self.rate(row.rerunsPerSecond)
                columns.add([
                    style.bold(name), row.intervalReruns > 0 ? style.red(rate) : rate,
                    DurationText.format(UInt64(saturating: row.nanosecondsPerSecond.rounded())),
                    row.intervalReruns > 0 ? DurationText.format(row.intervalP99Nanoseconds) : "-",
                    DurationText.format(row.p99Nanoseconds), "\(row.reruns)",
                    DurationText.format(row.totalNanoseconds),
                ])
            }
            out += columns.render(indent: "  ")
        }
        out += "\n" + style.bold("Recent actions") + "\n"
        if actions.isEmpty { out += "  none yet\n" }
        for action in actions {
            var line = "  " + style.dim(DurationText.formatTime(action.atNanoseconds)) + "  "
            line += style.cyan(Self.fit(TerminalEscaping.escape(action.name), nameWidth))
            if !action.arguments.isEmpty { line += " " + Self.fit(TerminalEscaping.escape(action.arguments), 24) }
            line += "  " + DurationText.format(action.durationNanoseconds)
            if action.changeCount > 0 {
                let names = zip(action.changed, action.values).map { name, value in
                    Self.fit(TerminalEscaping.escape(name), 24) + (value.map { " = " + Self.fit(TerminalEscaping.escape($0), 24) } ?? "")
                }.joined(separator: ", ")
                let more = action.changeCount > action.changed.count ? " (\(action.changeCount) changes)" : ""
                line += "  changed " + names + more
            }
            out += line + "\n"
        }
        out += "\n" + style.bold("Issues") + " (\(issueCount))\n"
        if issues.isEmpty { out += "  none\n" }
        for issue in issues {
            var line = "  " + style.dim(DurationText.formatTime(issue.atNanoseconds)) + "  " + style.yellow(issue.kind)
            if !issue.node.isEmpty { line += "  " + Self.fit(TerminalEscaping.escape(issue.node), nameWidth) }
            if !issue.message.isEmpty { line += "  " + Self.fit(TerminalEscaping.escape(issue.message), max(20, width - 40)) }
            out += line + "\n"
        }
        guard let height, height > 0 else { return out }
        let lines = out.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count > height else { return out }
        return lines.prefix(height).joined(separator: "\n") + "\n"
    }

    private func statusText(style: TextStyle) -> String {
        switch status {
        case "recording": style.green(status)
        case "damaged": style.red(status)
        case "waiting": style.yellow(status)
        default: style.dim(status)
        }
    }

    /// `text` cut to `width` characters, with an ellipsis when cut.
    static func fit(_ text: String, _ width: Int) -> String {
        guard text.count > width, width > 1 else { return text }
        return String(text.prefix(width - 1)) + "…"
    }

    /// A rate with one decimal below 100, none above.
    static func rate(_ value: Double) -> String {
        value < 100 ? String(format: "%.1f", value) : String(format: "%.0f", value)
    }
}
