/// The hottest computations: ranked by reruns or by time, with p50, p99 and
/// max durations and their top causes.
public struct HotReport: Sendable {
    /// The ranking.
    public let order: HotOrder
    /// The ranked entries (at most the limit asked for).
    public let entries: [HotEntry]
    /// How many computations the trace holds in all.
    public let computationCount: Int

    /// Ranks the computations of `model`; `top` limits the entries (nil: all).
    public init(model: TraceModel, by order: HotOrder = .reruns, top: Int? = 10) {
        let groups = ComputationGroup.all(in: model)
        self.init(groups: groups, by: order, top: top)
    }

    /// Ranks already grouped computations.
    public init(groups: [ComputationGroup], by order: HotOrder = .reruns, top: Int? = 10) {
        self.order = order
        computationCount = groups.count
        let ranked = groups.sorted { lhs, rhs in
            switch order {
            case .reruns:
                if lhs.runs.reruns != rhs.runs.reruns { return lhs.runs.reruns > rhs.runs.reruns }
                if lhs.runs.totalNanoseconds != rhs.runs.totalNanoseconds {
                    return lhs.runs.totalNanoseconds > rhs.runs.totalNanoseconds
                }
            case .time:
                if lhs.runs.totalNanoseconds != rhs.runs.totalNanoseconds {
                    return lhs.runs.totalNanoseconds > rhs.runs.totalNanoseconds
                }
                if lhs.runs.reruns != rhs.runs.reruns { return lhs.runs.reruns > rhs.runs.reruns }
            }
            return lhs.name < rhs.name
        }
        entries = ranked.prefix(top.map { max(0, $0) } ?? ranked.count).map { $0.hotEntry() }
    }

    /// The report as aligned text.
    public func text(style: TextStyle = .plain) -> String {
        guard !entries.isEmpty else { return "No computations ran in this trace.\n" }
        let by = order == .reruns ? "reruns" : "total time"
        var out = style.bold("Hot computations by \(by)") + " (\(entries.count) of \(computationCount))\n\n"
        // The site column only appears when the trace records sites.
        let showsSites = entries.contains { $0.site != nil }
        var columns = TextColumns([.left, .left, .right, .right, .right, .right, .right, .right, .left]
            + (showsSites ? [.left] : []))
        columns.add((["name", "kind", "reruns", "total", "self", "p50", "p99", "max", "top causes"]
            + (showsSites ? ["site"] : [])).map { style.dim($0) })
        let hottest = entries.first.map { order == .reruns ? $0.reruns : Int(clamping: $0.totalNanoseconds) } ?? 0
        for entry in entries {
            let metric = order == .reruns ? entry.reruns : Int(clamping: entry.totalNanoseconds)
            let isHot = hottest > 0 && metric * 2 >= hottest
            let escapedName = TerminalEscaping.escape(entry.name)
            let name = entry.instances > 1 ? "\(escapedName) ×\(entry.instances)" : escapedName
            let causes = entry.topCauses.map { "\(TerminalEscaping.escape($0.cause)) ×\($0.count)" }.joined(separator: ", ")
            columns.add([
                style.bold(name), entry.kind,
                isHot && order == .reruns ? style.red("\(entry.reruns)") : "\(entry.reruns)",
                isHot && order == .time ? style.red(DurationText.format(entry.totalNanoseconds))
                    : DurationText.format(entry.totalNanoseconds),
                DurationText.format(entry.selfNanoseconds),
                DurationText.format(entry.p50Nanoseconds),
                DurationText.format(entry.p99Nanoseconds),
                DurationText.format(entry.maxNanoseconds),
                causes.isEmpty ? style.dim("-") : style.cyan(causes),
            ] + (showsSites ? [entry.site.map { style.dim(TerminalEscaping.escape($0)) } ?? style.dim("-")] : []))
        }
        out += columns.render(indent: "  ")
        if let more = CountText.more(shown: entries.count, of: computationCount) {
            out += "  " + style.dim(more) + "\n"
        }
        let withActions = entries.filter { !$0.topActions.isEmpty }.prefix(5)
        if !withActions.isEmpty {
            out += "\n" + style.bold("Root actions") + "\n"
            for entry in withActions {
                let actions = entry.topActions.map { "\(TerminalEscaping.escape($0.cause)) ×\($0.count)" }.joined(separator: ", ")
                out += "  \(TerminalEscaping.escape(entry.name)): \(style.cyan(actions))\n"
            }
        }
        return out
    }
}
