import ReactorTraceFormat

/// What a trace holds: duration, events by kind, nodes by kind, flushes,
/// actions, issues and the hottest computations. Its JSON form is the
/// contract of `summary --json`.
public struct SummaryReport: Sendable, Codable, Equatable {
    /// One store action in the summary.
    public struct ActionLine: Sendable, Codable, Equatable {
        /// `Store.action(_:)`.
        public let name: String
        /// How many times it ran.
        public let count: Int
        /// Computation runs whose causal chain starts at it.
        public let runsCaused: Int
        /// Of those, the reruns (first runs left out).
        public let rerunsCaused: Int
    }

    /// One issue in the summary.
    public struct IssueLine: Sendable, Codable, Equatable {
        /// When it was reported.
        public let timestampNanoseconds: UInt64
        /// Its kind (`runaway`, `cycle`…).
        public let kind: String
        /// The runtime's message.
        public let message: String
    }

    /// Total number of events.
    public let events: Int
    /// Events per kind name (`depend`, `rerun-begin`…).
    public let eventsByKind: [String: Int]
    /// Total number of nodes.
    public let nodes: Int
    /// Nodes per kind label (`autorun`, `computed`, `property`…).
    public let nodesByKind: [String: Int]
    /// Time from the first event to the last.
    public let durationNanoseconds: UInt64
    /// Recording threads.
    public let threads: Int
    /// Dependency edges ever recorded.
    public let edges: Int
    /// Dependency edges held at the end.
    public let liveEdges: Int
    /// Computation runs, first runs included.
    public let runs: Int
    /// Runs after the first.
    public let reruns: Int
    /// Flushes.
    public let flushes: Int
    /// Total flush time.
    public let flushNanoseconds: UInt64
    /// Longest flush.
    public let maxFlushNanoseconds: UInt64
    /// Store actions by name, the `top` most called.
    public let actions: [ActionLine]
    /// Distinct actions in the trace (``actions`` lists up to `top` of them).
    public let actionCount: Int
    /// Computations (by name and kind) in the trace (``topComputations`` lists up to `top` of them).
    public let computationCount: Int
    /// Issues reported (all of them).
    public let issues: Int
    /// Issues per kind.
    public let issuesByKind: [String: Int]
    /// The first issues, with messages.
    public let firstIssues: [IssueLine]
    /// The computations with the most reruns.
    public let topComputations: [HotEntry]
    /// Runs that began but did not end in the trace (it was cut short).
    public let unfinishedRuns: Int
    /// Flushes that began but did not end in the trace: not in `flushes` (docs/METRICS.md).
    public let unfinishedFlushes: Int
    /// How the recording ended, from the end block: `stopped`, `runtime-error`
    /// (the runtime stopped the process, see the issues), `signal SIGSEGV`…;
    /// nil when the trace has no end block (killed, or still being written).
    public let ending: String?
    /// Events the recorder produced but could not write (a full disk, say), from the end block.
    public let eventsDropped: UInt64
    /// What the recording says about itself (`commit`, `scenario`, `app`, the app's keys);
    /// nil when it says nothing (a trace of format 1.1 or older).
    public let metadata: TraceMetadata?
    /// A bounded recording's bound and what it overwrote; nil when the recording is unbounded.
    public let history: TraceHistory?

    /// The `eventsByKind` key of the events this reader skipped (extension
    /// events and unknown enumeration values): counted in `events` as the end block counts them.
    public static let skippedKind = "skipped (unknown kind)"
    /// The `eventsByKind` key of clock events (a thread's time before its first untimed event).
    public static let clockKind = "clock"

    /// Summarises `model`, listing up to `top` computations and actions;
    /// `end` is the trace's end block, if it has one.
    public init(model: TraceModel, top: Int = 5, end: TraceEnd? = nil, metadata: TraceMetadata? = nil,
                history: TraceHistory? = nil) {
        self.metadata = metadata?.isEmpty == false ? metadata : nil
        self.history = history
        ending = end.map { $0.termination.label }
        eventsDropped = end?.eventsDropped ?? 0
        events = model.totalEvents
        var byKind: [String: Int] = [:]
        for (kind, count) in model.eventsByKind { byKind[kind.name] = count }
        if model.skippedEvents > 0 { byKind[Self.skippedKind] = model.skippedEvents }
        if model.clockEvents > 0 { byKind[Self.clockKind] = model.clockEvents }
        eventsByKind = byKind
        nodes = model.nodes.count
        var nodeKinds: [String: Int] = [:]
        for node in model.nodes { nodeKinds[node.kind.label, default: 0] += 1 }
        nodesByKind = nodeKinds
        durationNanoseconds = model.durationNanoseconds
        threads = model.threadCount
        edges = model.edges.count
        liveEdges = model.finalEdges.count
        let computations = model.nodes.filter(\.isComputation)
        runs = computations.reduce(0) { $0 + $1.runs.runs }
        reruns = computations.reduce(0) { $0 + $1.runs.reruns }
        flushes = model.flushes.count
        flushNanoseconds = model.flushes.totalNanoseconds
        maxFlushNanoseconds = model.flushes.maxNanoseconds
        actionCount = model.actions.count
        actions = model.actions
            .sorted { ($0.count, $1.qualifiedName) > ($1.count, $0.qualifiedName) }
            .prefix(top)
            .map { ActionLine(name: $0.qualifiedName, count: $0.count, runsCaused: $0.runsCaused,
                              rerunsCaused: $0.rerunsCaused) }
        issues = model.issueCounts.values.reduce(0, +)
        var issueKinds: [String: Int] = [:]
        for (kind, count) in model.issueCounts { issueKinds[kind.label] = count }
        issuesByKind = issueKinds
        firstIssues = model.issues.prefix(top).map {
            IssueLine(timestampNanoseconds: $0.timestamp, kind: $0.kind.label, message: $0.message)
        }
        let hot = HotReport(model: model, by: .reruns, top: top)
        topComputations = hot.entries
        computationCount = hot.computationCount
        unfinishedRuns = model.unfinishedRuns
        unfinishedFlushes = model.unfinishedFlushes
    }

    /// What a bounded recording's history says, in one line: its bound and what it overwrote.
    static func historyText(_ history: TraceHistory) -> String {
        let bound = "to \(byteCount(history.maxBytes))"
        guard history.eventsOverwritten > 0 else { return bound + "; nothing overwritten" }
        return bound + "; overwrote \(history.eventsOverwritten) earlier events in \(history.chunksOverwritten) chunks, "
            + "from \(DurationText.formatTime(history.firstOverwrittenNanoseconds)) "
            + "to \(DurationText.formatTime(history.lastOverwrittenNanoseconds))"
    }

    /// A size as `20 MiB`, `256 KiB`, `1.5 MiB` or `900 B`.
    static func byteCount(_ bytes: UInt64) -> String {
        for (unit, shift) in [("GiB", 30), ("MiB", 20), ("KiB", 10)] where bytes >= 1 << shift {
            let whole = bytes >> shift
            if whole << shift == bytes { return "\(whole) \(unit)" }
            let tenths = Int((Double(bytes) / Double(UInt64(1) << shift) * 10).rounded())
            return "\(tenths / 10).\(tenths % 10) \(unit)"
        }
        return "\(bytes) B"
    }

    /// The summary as text.
    public func text(style: TextStyle = .plain) -> String {
        var out = style.bold("Trace summary") + "\n"
        var facts = TextColumns([.left, .left])
        facts.add(["duration", DurationText.format(durationNanoseconds)])
        facts.add(["events", "\(events)" + (threads > 1 ? " on \(threads) threads" : "")])
        facts.add(["nodes", "\(nodes)"])
        facts.add(["edges", "\(edges) recorded, \(liveEdges) held at the end"])
        facts.add(["runs", "\(runs) (\(CountText.of(reruns, "rerun")))"])
        facts.add(["flushes", flushes == 0 ? "0" :
                    "\(flushes), \(DurationText.format(flushNanoseconds)) in all, longest \(DurationText.format(maxFlushNanoseconds))"])
        facts.add(["issues", issues == 0 ? "none" : style.yellow("\(issues)")])
        if let metadata {
            let line = metadata.entries.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            facts.add(["recorded", TerminalEscaping.escape(line)])
        }
        if let history { facts.add(["bounded", style.yellow(Self.historyText(history))]) }
        if let ending, ending != TraceTermination.stopped.label {
            let signal = ending.hasPrefix("signal ") ? String(ending.dropFirst(7)) : nil
            let text = switch ending {
            case TraceTermination.runtimeError.label:
                "the runtime stopped the process (see the issues); the trace was flushed first"
            case TraceTermination.snapshot.label:
                "a snapshot: the recording went on after it"
            case "signal SIGINT", "signal SIGTERM":
                "signal \(signal == "SIGINT" ? 2 : 15) (\(signal ?? "")): the process was asked to stop; the trace was ended first"
            default:
                "the process died of \(signal ?? ending); the trace was flushed first"
            }
            facts.add(["ended", style.yellow(text)])
        }
        if eventsDropped > 0 {
            // Both counts come from the file: a damaged end block's sum may not fit.
            let (produced, overflow) = UInt64(clamping: events).addingReportingOverflow(eventsDropped)
            let of = overflow ? "" : " of \(produced)"
            facts.add(["lost", style.yellow("\(eventsDropped)\(of) events recorded were not written (write error)")])
        }
        out += facts.render(indent: "  ")
        out += "\n" + style.bold("Events by kind") + "\n"
        var kinds = TextColumns([.left, .right])
        for kind in TraceEventKind.allCases {
            if let count = eventsByKind[kind.name] { kinds.add([kind.name, "\(count)"]) }
        }
        if let count = eventsByKind[Self.clockKind] { kinds.add([Self.clockKind, "\(count)"]) }
        if let count = eventsByKind[Self.skippedKind] { kinds.add([Self.skippedKind, "\(count)"]) }
        out += kinds.render(indent: "  ")
        out += "\n" + style.bold("Nodes by kind") + "\n"
        var nodeKinds = TextColumns([.left, .right])
        for kind in TraceNodeKind.allCases {
            if let count = nodesByKind[kind.label] { nodeKinds.add([kind.label, "\(count)"]) }
        }
        out += nodeKinds.render(indent: "  ")
        if !actions.isEmpty {
            out += "\n" + style.bold("Actions") + "\n"
            var lines = TextColumns([.left, .right, .left])
            for action in actions {
                lines.add([style.cyan(TerminalEscaping.escape(action.name)), "×\(action.count)", style.dim("caused \(CountText.of(action.runsCaused, "run"))")])
            }
            out += lines.render(indent: "  ")
            if let more = CountText.more(shown: actions.count, of: actionCount) { out += "  " + style.dim(more) + "\n" }
        }
        if !topComputations.isEmpty {
            out += "\n" + style.bold("Most reruns") + "\n"
            var lines = TextColumns([.left, .left, .right, .right])
            for entry in topComputations {
                lines.add([style.bold(TerminalEscaping.escape(entry.name)), entry.kind, CountText.of(entry.reruns, "rerun"),
                           DurationText.format(entry.totalNanoseconds)])
            }
            out += lines.render(indent: "  ")
            if let more = CountText.more(shown: topComputations.count, of: computationCount) {
                out += "  " + style.dim(more) + "\n"
            }
        }
        if issues > 0 {
            out += "\n" + style.bold("Issues") + "\n"
            for kind in issuesByKind.keys.sorted() {
                out += "  " + style.yellow("\(kind) ×\(issuesByKind[kind]!)") + "\n"
            }
            for issue in firstIssues {
                out += "  " + style.dim(DurationText.formatTime(issue.timestampNanoseconds)) + "  \(TerminalEscaping.escape(issue.message))\n"
            }
            if let more = CountText.more(shown: firstIssues.count, of: issues) { out += "  " + style.dim(more) + "\n" }
        }
        var unfinished: [String] = []
        if unfinishedRuns > 0 { unfinished.append(CountText.of(unfinishedRuns, "run")) }
        if unfinishedFlushes > 0 { unfinished.append(CountText.of(unfinishedFlushes, "flush", plural: "flushes")) }
        if !unfinished.isEmpty {
            out += "\n" + style.yellow("\(unfinished.joined(separator: " and ")) had not finished when the trace ends") + "\n"
        }
        return out
    }
}
