extension ProfileReport {
    /// The report's section on unneeded reruns (``WasteReport``), empty when there are none.
    func wasteHTML() -> String {
        let x = MarkupEscaping.xml
        let waste = profile.waste
        let unneeded = waste.entries.filter { $0.unneededReruns > 0 }
        guard !unneeded.isEmpty else { return "" }
        var out = "<section><h2>Unneeded reruns</h2><p class=\"lead\">\(waste.unneededReruns) of \(waste.reruns) reruns read only values "
            + "equal to those their previous run read (docs/METRICS.md, “Unneeded work”).</p>\n"
        out += "<table><thead><tr><th>Computation</th><th class=\"num\">Reruns</th><th class=\"num\">Unneeded</th>"
            + "<th class=\"num\">Time</th><th>Caused by</th><th>Fix</th></tr></thead><tbody>\n"
        for entry in unneeded.prefix(hotLimit) {
            let writes = entry.writes.prefix(3).map { write in
                "<code>\(x(write.node))</code>" + (write.action.map { " in <code>\(x($0))</code>" } ?? "")
                    + (write.site.map { " <span class=\"muted site\">\(x($0))</span>" } ?? "") + " ×\(write.reruns)"
            }.joined(separator: "<br>")
            out += "<tr><td><span class=\"kind kind-\(x(entry.kind))\">\(x(entry.kind))</span> <code>\(x(entry.name))</code></td>"
            out += "<td class=\"num\">\(entry.reruns)</td><td class=\"num\">\(entry.unneededReruns)</td>"
            out += "<td class=\"num\">\(x(DurationText.format(entry.unneededNanoseconds)))</td><td>\(writes)</td><td>\(x(entry.fix))</td></tr>\n"
        }
        return out + "</tbody></table></section>\n"
    }
}
