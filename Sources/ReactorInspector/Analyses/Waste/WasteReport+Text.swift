extension WasteReport {
    /// What can and cannot be decided about this trace, in one or two sentences.
    public var decidability: String {
        if !hasValues {
            return "This trace was recorded without values: whether a rerun read equal values cannot be decided"
                + " (record with REACTOR_TRACE_VALUES=200 or TraceRecorder.Options(values: .described(maxLength: 200)))."
                + " Decided without values: computeds that recomputed an equal value (cut off by Equatable)."
        }
        guard undecidedReruns > 0 else { return "Every rerun was judged (\(reruns) \(reruns == 1 ? "rerun" : "reruns"))." }
        return "\(undecidedReruns) of \(reruns) reruns could not be judged: they read a value the trace does not hold"
            + " (a plain Dependency, a secret, a description cut at the recorder's limit, or one written before recording began)."
    }

    /// The report as aligned text.
    public func text(style: TextStyle = .plain) -> String {
        var out = ""
        let unneeded = entries.filter { $0.unneededReruns > 0 }
        let equal = entries.filter { $0.equalResults > 0 }
        if unneeded.isEmpty {
            out += style.bold("No unneeded reruns") + (hasValues ? "" : " found (none can be decided without values)") + ".\n"
        } else {
            out += style.bold("Unneeded reruns") + " (\(unneededReruns) of \(reruns) reruns read only values equal to their previous run's)\n\n"
            var columns = TextColumns([.left, .left, .right, .right, .right, .left])
            columns.add(["name", "kind", "reruns", "unneeded", "time", "caused by"].map { style.dim($0) })
            for entry in unneeded {
                let writes = entry.writes.prefix(3).map { write in
                    var text = TerminalEscaping.escape(write.node)
                    if let action = write.action { text += " in " + TerminalEscaping.escape(action) }
                    if let site = write.site { text += " at " + TerminalEscaping.escape(site) }
                    return text + " ×\(write.reruns)"
                }.joined(separator: ", ") + (entry.writes.count > 3 ? ", …" : "")
                columns.add([style.bold(TerminalEscaping.escape(entry.name)), entry.kind, "\(entry.reruns)",
                             style.red("\(entry.unneededReruns)"), DurationText.format(entry.unneededNanoseconds),
                             style.cyan(writes)])
            }
            out += columns.render(indent: "  ")
        }
        if !equal.isEmpty {
            out += "\n" + style.bold("Computeds that recomputed an equal value") + " (cut off, but paid for)\n\n"
            var columns = TextColumns([.left, .right, .right, .right])
            columns.add(["name", "reruns", "equal", "time"].map { style.dim($0) })
            for entry in equal.sorted(by: { ($1.equalResultNanoseconds, $0.name) < ($0.equalResultNanoseconds, $1.name) }) {
                columns.add([style.bold(TerminalEscaping.escape(entry.name)), "\(entry.reruns)", "\(entry.equalResults)",
                             DurationText.format(entry.equalResultNanoseconds)])
            }
            out += columns.render(indent: "  ")
        }
        if !entries.isEmpty {
            out += "\n" + style.bold("Fixes") + "\n"
            for entry in entries { out += "  \(TerminalEscaping.escape(entry.name)): \(TerminalEscaping.escape(entry.fix))\n" }
        }
        out += "\n" + style.dim(decidability) + "\n"
        return out
    }
}
