import Foundation

extension TraceDiff {
    /// The diff as JSON (sorted keys, pretty-printed), for tools.
    public func json(basePath: String, headPath: String) throws -> String {
        struct Document: Encodable {
            var base: String
            var head: String
            var diff: TraceDiff
            var regressions: [String]
        }
        return try JSONText.encode(Document(base: basePath, head: headPath, diff: self, regressions: regressions.map(\.name)))
    }

    /// The noise rule in words, as the text and Markdown forms state it.
    var noiseRule: String {
        "time changes when the typical run (median run or action) moves by more than "
            + "\(formatDecimal(Self.noisePercent))% and \(Self.microseconds(minimumTimeNanoseconds)) µs; reruns are exact"
    }

    /// The terminal table: which traces and the noise rule first, then per section
    /// the changed entries by impact with a totals row, then new and gone ones.
    /// `limit` caps the rows per section (unchanged ones are counted, not listed).
    public func text(basePath: String, headPath: String, limit: Int = 30) -> String {
        var lines: [String] = ["diff \(basePath) → \(headPath)", "(\(noiseRule))", ""]
        for (title, entries) in [("computations", computations), ("actions", actions)] {
            let changed = entries.filter { $0.status == .changed }
            let new = entries.filter { $0.status == .new }
            let gone = entries.filter { $0.status == .gone }
            let unchanged = entries.count - changed.count - new.count - gone.count
            lines.append("\(title): \(changed.count) changed, \(new.count) new, \(gone.count) gone, \(unchanged) unchanged")
            if !entries.isEmpty {
                var rows = changed.prefix(limit).map { entry -> [String] in
                    [(entry.regressed ? "! " : "  ") + TerminalEscaping.escape(entry.name),
                     "\(entry.base!.reruns) → \(entry.head!.reruns)",
                     Self.signed(entry.rerunsDelta) + Self.percent(entry.rerunsPercent),
                     "\(Self.ms(entry.base!.totalNanoseconds)) → \(Self.ms(entry.head!.totalNanoseconds))",
                     Self.signedMilliseconds(entry.timeDeltaNanoseconds) + Self.percent(entry.timePercent),
                     entry.timeChanged ? Self.percent(entry.typicalPercent).trimmingCharacters(in: .whitespaces) : "noise"]
                }
                let totals = Self.totals(of: entries)
                rows.append(Self.totalsRow(totals))
                lines += Self.table(header: ["  " + (title == "actions" ? "action" : "computation"), "reruns", "Δ reruns",
                                             "total ms", "Δ total ms", "typical"],
                                    rows: rows)
                if changed.count > limit { lines.append("  … \(changed.count - limit) more changed") }
            }
            for entry in new.prefix(limit) {
                lines.append("  + \(entry.name) (new: \(entry.head!.reruns) reruns, \(Self.ms(entry.head!.totalNanoseconds)) ms)")
            }
            for entry in gone.prefix(limit) {
                lines.append("  - \(entry.name) (gone: had \(entry.base!.reruns) reruns, \(Self.ms(entry.base!.totalNanoseconds)) ms)")
            }
            lines.append("")
        }
        if let threshold = regressionThresholdPercent {
            let regressions = self.regressions
            if regressions.isEmpty {
                lines.append("no regression over \(formatDecimal(threshold))% (\(basePath) → \(headPath))")
            } else {
                lines.append("\(regressions.count) regressed over \(formatDecimal(threshold))%: "
                             + regressions.map(\.name).joined(separator: ", "))
            }
        }
        while lines.last == "" { lines.removeLast() }
        // Names are data: nothing in them reaches the terminal raw (padded rows escaped their names first).
        return lines.map(TerminalEscaping.escape).joined(separator: "\n") + "\n"
    }

    /// The `total` row of a section: every name's reruns and total time, on each side.
    static func totalsRow(_ totals: Totals) -> [String] {
        let rerunsDelta = totals.head.reruns - totals.base.reruns
        let timeDelta = totals.head.totalNanoseconds.signedDistance(from: totals.base.totalNanoseconds)
        let rerunsPercent = totals.base.reruns == 0 ? nil : Double(rerunsDelta) / Double(totals.base.reruns) * 100
        let timePercent = totals.base.totalNanoseconds == 0 ? nil
            : Double(timeDelta) / Double(totals.base.totalNanoseconds) * 100
        return ["  total", "\(totals.base.reruns) → \(totals.head.reruns)", signed(rerunsDelta) + percent(rerunsPercent),
                "\(ms(totals.base.totalNanoseconds)) → \(ms(totals.head.totalNanoseconds))",
                signedMilliseconds(timeDelta) + percent(timePercent), ""]
    }

    /// A Markdown table for PR comments: the changed, new and gone entries, most impact first.
    public func markdown(basePath: String, headPath: String, limit: Int = 20) -> String {
        var lines = ["### Reactor trace diff", "",
                     "\(MarkupEscaping.markdownCode(basePath)) → \(MarkupEscaping.markdownCode(headPath)) (\(noiseRule))", ""]
        let entries = (computations + actions).filter { $0.status != .unchanged }
            .sorted { $0.timeDeltaNanoseconds.magnitude > $1.timeDeltaNanoseconds.magnitude }
        if entries.isEmpty {
            lines.append("No change in reruns or time.")
        } else {
            lines.append("| | Name | Kind | Reruns | Δ reruns | Time (ms) | Δ time |")
            lines.append("| --- | --- | --- | ---: | ---: | ---: | ---: |")
            for entry in entries.prefix(limit) {
                let mark = entry.regressed ? "🔺" : entry.status == .new ? "🆕" : entry.status == .gone ? "➖" : ""
                let reruns = "\(entry.base.map { String($0.reruns) } ?? "–") → \(entry.head.map { String($0.reruns) } ?? "–")"
                let time = "\(entry.base.map { Self.ms($0.totalNanoseconds) } ?? "–") → \(entry.head.map { Self.ms($0.totalNanoseconds) } ?? "–")"
                lines.append("| \(mark) | \(MarkupEscaping.markdownCode(entry.name)) | \(entry.kind) | \(reruns) | "
                             + "\(Self.signed(entry.rerunsDelta))\(Self.percent(entry.rerunsPercent)) | \(time) | "
                             + "\(Self.signedMilliseconds(entry.timeDeltaNanoseconds))\(Self.percent(entry.timePercent)) |")
            }
            for (title, section) in [("all computations", computations), ("all actions", actions)] where !section.isEmpty {
                let row = Self.totalsRow(Self.totals(of: section))
                lines.append("| | **total** | \(title) | \(row[1]) | \(row[2]) | \(row[3]) | \(row[4]) |")
            }
            if entries.count > limit { lines.append(""); lines.append("… and \(entries.count - limit) more.") }
        }
        if let threshold = regressionThresholdPercent {
            lines.append("")
            lines.append(regressions.isEmpty ? "✅ No regression over \(formatDecimal(threshold))%."
                         : "❌ \(regressions.count) regressed over \(formatDecimal(threshold))%.")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func ms(_ nanoseconds: UInt64) -> String { formatDecimal(Double(nanoseconds) / 1e6) }

    static func microseconds(_ nanoseconds: UInt64) -> String { formatDecimal(Double(nanoseconds) / 1e3) }

    static func signed(_ value: Int) -> String { value > 0 ? "+\(value)" : "\(value)" }

    static func signedMilliseconds(_ nanoseconds: Int64) -> String {
        let text = formatDecimal(Double(nanoseconds) / 1e6)
        return nanoseconds > 0 ? "+" + text : text
    }

    static func percent(_ value: Double?) -> String {
        guard let value else { return "" }
        let rounded = (value * 10).rounded() / 10
        let text = rounded == rounded.rounded() ? Int(exactly: rounded).map(String.init) ?? String(rounded) : String(rounded)
        return " (\(rounded > 0 ? "+" : "")\(text)%)"
    }

    static func table(header: [String], rows: [[String]]) -> [String] {
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        return all.map { row in
            row.enumerated().map { column, cell in
                let pad = String(repeating: " ", count: widths[column] - cell.count)
                return column == 0 ? cell + pad : pad + cell
            }.joined(separator: "  ")
        }
    }
}
