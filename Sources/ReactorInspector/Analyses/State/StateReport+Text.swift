extension StateReport {
    /// The report as terminal text: names and values escaped.
    public func text(style: TextStyle = .plain, tracePath: String) -> String {
        var out = "state of \(TerminalEscaping.escape(tracePath)) at \(moment.moment)"
        if let actionName {
            out += " (\(TerminalEscaping.escape(actionName)) ended at \(DurationText.formatTime(moment.timestamp)))"
        } else if moment.moment != .time(moment.timestamp) {
            out += " (\(DurationText.formatTime(moment.timestamp)))"
        }
        out += "\n\n" + style.bold("values") + "\n"
        let values = valueEntries
        if values.isEmpty {
            out += "  (no live node holds a value)\n"
        } else {
            var columns = TextColumns([.left, .left, .left])
            for entry in values {
                columns.add([style.dim(entry.kind), TerminalEscaping.escape(entry.name),
                             entry.value.map(TerminalEscaping.escape) ?? style.dim("(no value recorded)")])
            }
            out += columns.render(indent: "  ")
        }
        out += "\n" + style.bold("computations alive") + "\n"
        let computations = computationEntries
        if computations.isEmpty {
            out += "  (none)\n"
        } else {
            var columns = TextColumns([.left, .left, .left])
            for entry in computations {
                let reads = entry.dependencies ?? []
                columns.add([style.dim(entry.kind), TerminalEscaping.escape(entry.name),
                             reads.isEmpty ? style.dim("depends on nothing")
                                 : "depends on " + reads.map(TerminalEscaping.escape).joined(separator: ", ")])
            }
            out += columns.render(indent: "  ")
        }
        return out
    }
}
