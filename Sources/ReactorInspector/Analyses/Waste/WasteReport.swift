import ReactorTraceFormat

/// Unneeded work in a trace (`reactor-inspect waste`): the reruns that read
/// only values equal to those of the computation's previous run, ranked by
/// the time they took, with the writes that caused them and a fix; and the
/// computeds that recomputed an equal value (cut off, but paid for).
///
/// Judged in the one import pass every view reads (``WasteTracker`` on the
/// importer's resolved events; docs/METRICS.md, "Unneeded reruns").
public struct WasteReport: Sendable {
    /// Computations with unneeded reruns or equal results, most time in unneeded reruns first.
    public let entries: [WasteEntry]
    /// Every rerun of the trace.
    public let reruns: Int
    /// Reruns judged unneeded, over every computation.
    public let unneededReruns: Int
    /// Reruns that could not be judged, over every computation.
    public let undecidedReruns: Int
    /// Whether the trace recorded values: without them no rerun can be judged
    /// unneeded, only a computed's equal result (the `Equatable` cut-off) is known.
    public let hasValues: Bool

    /// The waste judged while `profile` was built.
    public init(profile: TraceProfile) {
        self.init(tracker: profile.waste, model: profile.model, importer: profile.builder)
    }

    /// A report as judged before (the index keeps it).
    init(entries: [WasteEntry], reruns: Int, unneededReruns: Int, undecidedReruns: Int, hasValues: Bool) {
        self.entries = entries
        self.reruns = reruns
        self.unneededReruns = unneededReruns
        self.undecidedReruns = undecidedReruns
        self.hasValues = hasValues
    }

    init(tracker: WasteTracker, model: TraceModel, importer: TraceModelBuilder) {
        let tallies = tracker.finishedTallies
        struct Key: Hashable { let name: String; let kind: TraceNodeKind }
        var order: [Key] = []
        var grouped: [Key: (reruns: Int, tally: WasteTracker.Tally)] = [:]
        for (position, node) in model.nodes.enumerated() where node.isComputation {
            let key = Key(name: node.name, kind: node.kind)
            if grouped[key] == nil {
                order.append(key)
                grouped[key] = (0, WasteTracker.Tally())
            }
            grouped[key]!.reruns += node.runs.reruns
            guard let tally = tallies[Int32(position)] else { continue }
            grouped[key]!.tally.unneeded += tally.unneeded
            grouped[key]!.tally.unneededNanoseconds = grouped[key]!.tally.unneededNanoseconds.saturatingAdd(tally.unneededNanoseconds)
            grouped[key]!.tally.undecided += tally.undecided
            grouped[key]!.tally.equalResults += tally.equalResults
            grouped[key]!.tally.equalResultNanoseconds = grouped[key]!.tally.equalResultNanoseconds.saturatingAdd(tally.equalResultNanoseconds)
            grouped[key]!.tally.causes.merge(tally.causes, uniquingKeysWith: +)
        }
        var entries: [WasteEntry] = []
        var totals = (reruns: 0, unneeded: 0, undecided: 0)
        for key in order {
            let (reruns, tally) = grouped[key]!
            totals.reruns += reruns
            totals.unneeded += tally.unneeded
            totals.undecided += tally.undecided
            guard tally.unneeded > 0 || tally.equalResults > 0 else { continue }
            let writes = tally.causes.map { write, count in Self.resolve(write, reruns: count, model: model, importer: importer) }
                .sorted { ($1.reruns, $0.node, $0.action ?? "") < ($0.reruns, $1.node, $1.action ?? "") }
            entries.append(WasteEntry(
                name: key.name, kind: key.kind.label, reruns: reruns, unneededReruns: tally.unneeded,
                unneededNanoseconds: tally.unneededNanoseconds, undecidedReruns: tally.undecided,
                equalResults: tally.equalResults, equalResultNanoseconds: tally.equalResultNanoseconds, writes: writes,
                fix: Self.fix(name: key.name, unneeded: tally.unneeded, writes: writes)))
        }
        self.entries = entries.sorted {
            ($1.unneededNanoseconds, $1.unneededReruns, $1.equalResultNanoseconds, $0.name)
                < ($0.unneededNanoseconds, $0.unneededReruns, $0.equalResultNanoseconds, $1.name)
        }
        reruns = totals.reruns
        unneededReruns = totals.unneeded
        undecidedReruns = totals.undecided
        hasValues = model.hasValues
    }

    /// The entries of computations named `name`.
    public func entries(named name: String) -> [WasteEntry] {
        entries.filter { $0.name == name }
    }

    private static func resolve(_ key: WasteWrite.Key, reruns: Int, model: TraceModel,
                                importer: TraceModelBuilder) -> WasteWrite {
        let action = key.action >= 0 ? importer.actionName(key.action) : nil
        guard key.node >= 0, Int(key.node) < model.nodes.count else {
            return WasteWrite(node: key.cause.map { "(\($0.label))" } ?? "(unknown)", kind: nil, action: action,
                              site: key.site, reruns: reruns)
        }
        let node = model.nodes[Int(key.node)]
        return WasteWrite(node: node.name, kind: node.kind.label, action: action, site: key.site ?? node.site,
                          reruns: reruns)
    }

    /// The one-line fix for a computation's waste, from what wrote the equal values.
    static func fix(name: String, unneeded: Int, writes: [WasteWrite]) -> String {
        guard unneeded > 0, let write = writes.first else {
            return "split \(name): it recomputes after changes that do not change its result"
                + " (move what it reads but does not need into a computed of its own)"
        }
        let writer = write.action.map { " in \($0)" } ?? ""
        switch write.kind {
        case "property", "reactive-property":
            return "make \(write.node)'s type Equatable (equal writes are then skipped), or compare before writing it\(writer)"
        case "computed":
            return "make \(write.node)'s value Equatable, so an equal result no longer invalidates \(name)"
        case "subject", "signal", "operator", "binding":
            return "add distinctUntilChanged() after \(write.node), or do not send an equal value again\(writer)"
        case nil:
            return "\(name) was invalidated \(write.node == "(explicit)" ? "explicitly" : "without a change") while nothing it read changed: drop that invalidate()\(writer)"
        default:
            return "call \(write.node).changed() only when what it stands for changed\(writer)"
        }
    }
}
