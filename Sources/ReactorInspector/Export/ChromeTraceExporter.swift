import ReactorTraceFormat

/// Streams a trace as Chrome Trace Event JSON (the format of chrome://tracing
/// and ui.perfetto.dev): reruns, actions and flushes as nested `B`/`E` slices
/// on their thread's track (pid 1, tid = thread index + 1), `changed` and
/// `invalidate` as thread-scoped instant events, issues as process-scoped
/// instants, and flow events (`s` at the change, `t` at the invalidation,
/// `f` with `bp: "e"` at the rerun) so the viewers draw each causal arrow.
///
/// It reads the events as the one importer resolves them
/// (``ImportedEventVisitor``): names and kinds are the model's, and a slice
/// ends where the importer pairs its end with its beginning. Events are
/// written as they are read; memory holds per thread the names of the slices
/// written open (an `E` closes its `B` by name) and the pending flows, so it
/// grows with nodes, not events.
public final class ChromeTraceExporter: ImportedEventVisitor {
    /// The event category of everything written; flows bind to slices of the same category.
    public static let category = "reactor"

    private let output: ByteOutput
    /// The importer whose events are written (its own for ``record(_:)``).
    private var importer: TraceModelBuilder?
    /// Per thread, the names of the `B` events written and not yet closed, innermost last.
    private var openNames: [UInt32: [String]] = [:]
    /// Threads given a track, and their latest time.
    private var lastTimestamp: [UInt32: UInt64] = [:]
    /// The flow waiting for each invalidated computation's rerun.
    private var pendingFlows: [UInt64: UInt64] = [:]
    private var nextFlowID: UInt64 = 1
    private var wroteEvent = false
    private var finished = false
    /// The first write error met while visiting (visiting cannot throw); writing stops there.
    private var writeError: (any Error)?
    /// Events written so far (metadata included).
    public private(set) var eventsWritten = 0

    /// Starts the JSON document on `output`.
    public init(output: ByteOutput, traceName: String = "reactor trace") throws {
        self.output = output
        try output.appendStatic("{\"displayTimeUnit\":\"ns\",\"otherData\":{\"producer\":\"reactor-inspect\",\"trace\":\"")
        output.appendJSONEscaped(traceName)
        try output.appendStatic("\"},\"traceEvents\":[\n")
        try beginEvent()
        try output.appendStatic("{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"tid\":0,\"args\":{\"name\":\"Reactor\"}}")
    }

    /// Exports a whole event sequence and finishes the document.
    public static func export(_ events: some Sequence<TraceEvent>, to output: ByteOutput, traceName: String = "reactor trace") throws {
        let exporter = try ChromeTraceExporter(output: output, traceName: traceName)
        for event in events { try exporter.record(event) }
        try exporter.finish()
    }

    /// Writes what `event` shows, importing it first (for a trace no other
    /// view imports; to share one import, pass the exporter to
    /// ``TraceModelBuilder/consume(_:visiting:)`` and call ``finish()`` after).
    public func record(_ event: TraceEvent) throws {
        let importer = importer ?? TraceModelBuilder()
        self.importer = importer
        var visitor = self
        importer.consume(event, visiting: &visitor)
        if let writeError { throw writeError }
    }

    /// Writes what the importer's `event` shows.
    public func visit(_ event: ImportedEvent, from importer: TraceModelBuilder) {
        guard writeError == nil else { return }
        self.importer = importer
        do { try write(event, importer) } catch { writeError = error }
    }

    private func write(_ event: ImportedEvent, _ importer: TraceModelBuilder) throws {
        let thread = event.thread
        let now = event.time
        if lastTimestamp[thread] == nil { try threadNameEvent(thread) }
        lastTimestamp[thread] = now
        func name(of id: UInt64) -> String { Self.name(of: id, importer) }
        switch event.record {
        case .nodeStopped(let id):
            if let flow = pendingFlows.removeValue(forKey: id) {
                try instant(name(of: id), suffix: " stopped", thread: thread, at: now, scope: "t",
                            args: [("node", name(of: id)), ("event", "stopped before rerunning")])
                try flowEvent("f", id: flow, thread: thread, at: now, bindEnclosing: true)
            }
        case .nodeCreated, .nodeNamed, .depend, .value, .site:
            break
        case .changed(let dependency):
            try instant(name(of: dependency), suffix: " changed", thread: thread, at: now, scope: "t",
                        args: [("dependency", name(of: dependency)), ("event", "changed")])
        case .invalidated(let computation, let cause, let source):
            let causeName: String
            switch cause {
            case .dependency: causeName = "dependency \(name(of: source)) changed"
            case .parent: causeName = "parent \(name(of: source)) invalidated"
            case .explicit: causeName = "explicit invalidate()"
            case .stop, .runaway, .error: causeName = "stopped " + cause.stopReason
            }
            try instant(name(of: computation), suffix: " invalidated", thread: thread, at: now, scope: "t",
                        args: [("computation", name(of: computation)), ("cause", causeName), ("event", "invalidate")])
            // Parent invalidation and stop() end in a stop, not a rerun: no arrow.
            if cause == .dependency || cause == .explicit, pendingFlows[computation] == nil {
                let flow = nextFlowID
                nextFlowID += 1
                pendingFlows[computation] = flow
                try flowEvent("s", id: flow, thread: thread, at: now, bindEnclosing: false)
                if cause == .dependency {
                    try flowEvent("t", id: flow, thread: thread, at: now, bindEnclosing: false)
                }
            }
        case .rerunBegan(let computation, let firstRun):
            let name = importer.name(ofNode: event.node)
            openNames[thread, default: []].append(name)
            try sliceBegin(name, thread: thread, at: now, args: [
                ("kind", (importer.createdKind(ofNode: event.node) ?? .computation).label),
                ("run", firstRun ? "first run" : "rerun"),
                ("id", String(computation)),
            ])
            if !firstRun, let flow = pendingFlows.removeValue(forKey: computation) {
                try flowEvent("f", id: flow, thread: thread, at: now, bindEnclosing: true)
            }
        case .rerunEnded, .actionEnded, .flushEnded:
            // Only where the importer paired the end with its beginning; what
            // it ended inside ends too (innermost first).
            guard event.slice != nil else { return }
            try closeSlices(1 + event.endedInside, thread: thread, at: now)
        case .actionBegan(_, _, let arguments):
            let qualified = importer.actionName(event.action)
            openNames[thread, default: []].append(qualified)
            try sliceBegin(qualified, thread: thread, at: now,
                           args: [("kind", "action"), ("arguments", importer.string(arguments))])
        case .flushBegan:
            openNames[thread, default: []].append("flush")
            try sliceBegin("flush", thread: thread, at: now, args: [("kind", "flush")])
        case .issue(let kind, let node, let message):
            try instant("issue: \(kind.budgetName)", thread: thread, at: now, scope: "p",
                        args: [("kind", kind.budgetName), ("node", node == 0 ? "" : name(of: node)),
                               ("message", importer.string(message))])
        }
    }

    /// Closes every open slice and every pending flow at its thread's last
    /// timestamp (a truncated trace still balances), then ends the document.
    public func finish() throws {
        if let writeError { throw writeError }
        guard !finished else { return }
        finished = true
        for thread in openNames.keys.sorted() {
            let time = lastTimestamp[thread] ?? 0
            while let name = openNames[thread]?.popLast() {
                try sliceEnd(name, thread: thread, at: time, args: [("truncated", "the trace ended inside this slice")])
            }
        }
        if !pendingFlows.isEmpty, let importer {
            let thread = lastTimestamp.keys.min() ?? 0
            let time = lastTimestamp[thread] ?? 0
            for (computation, flow) in pendingFlows.sorted(by: { $0.value < $1.value }) {
                let name = Self.name(of: computation, importer)
                try instant(name, suffix: " still invalidated", thread: thread, at: time, scope: "t",
                            args: [("computation", name), ("event", "trace ended before the rerun")])
                try flowEvent("f", id: flow, thread: thread, at: time, bindEnclosing: true)
            }
            pendingFlows.removeAll()
        }
        try output.appendStatic("\n]}\n")
        try output.flush()
    }

    /// The model's name of node `id`.
    private static func name(of id: UInt64, _ importer: TraceModelBuilder) -> String {
        importer.position(ofNode: id).map { importer.name(ofNode: $0) } ?? TraceNode.unnamed(id, createdAs: nil)
    }

    /// Ends the `count` innermost slices open on `thread`.
    private func closeSlices(_ count: Int, thread: UInt32, at time: UInt64) throws {
        for _ in 0..<count {
            guard let name = openNames[thread]?.popLast() else { return }
            try sliceEnd(name, thread: thread, at: time, args: [])
        }
    }

    private func beginEvent() throws {
        if wroteEvent {
            try output.appendStatic(",\n")
        }
        wroteEvent = true
        eventsWritten += 1
    }

    /// Opens an event object: name (`name` followed by `suffix`), category, phase, pid, tid, ts.
    private func header(_ phase: StaticString, name: String, suffix: StaticString = "", thread: UInt32, at time: UInt64) throws {
        try beginEvent()
        try output.appendStatic("{\"name\":\"")
        output.appendJSONEscaped(name)
        try output.appendStatic(suffix)
        try output.appendStatic("\",\"cat\":\"reactor\",\"ph\":\"")
        try output.appendStatic(phase)
        try output.appendStatic("\",\"pid\":1,\"tid\":")
        output.appendDecimal(Self.tid(of: thread))
        try output.appendStatic(",\"ts\":")
        output.appendMicroseconds(time)
    }

    private func appendArgs(_ args: [(String, String)]) throws {
        try output.appendStatic(",\"args\":{")
        for (index, (key, value)) in args.enumerated() {
            try output.appendStatic(index == 0 ? "\"" : ",\"")
            output.appendJSONEscaped(key)
            try output.appendStatic("\":\"")
            output.appendJSONEscaped(value)
            try output.appendStatic("\"")
        }
        try output.appendStatic("}}")
    }

    private func sliceBegin(_ name: String, thread: UInt32, at time: UInt64, args: [(String, String)]) throws {
        try header("B", name: name, thread: thread, at: time)
        try appendArgs(args)
    }

    private func sliceEnd(_ name: String, thread: UInt32, at time: UInt64, args: [(String, String)]) throws {
        try header("E", name: name, thread: thread, at: time)
        try appendArgs(args)
    }

    private func instant(_ name: String, suffix: StaticString = "", thread: UInt32, at time: UInt64, scope: StaticString,
                         args: [(String, String)]) throws {
        try header("i", name: name, suffix: suffix, thread: thread, at: time)
        try output.appendStatic(",\"s\":\"")
        try output.appendStatic(scope)
        try output.appendStatic("\"")
        try appendArgs(args)
    }

    private func flowEvent(_ phase: StaticString, id: UInt64, thread: UInt32, at time: UInt64, bindEnclosing: Bool) throws {
        try header(phase, name: "causes", thread: thread, at: time)
        try output.appendStatic(",\"id\":")
        output.appendDecimal(id)
        if bindEnclosing { try output.appendStatic(",\"bp\":\"e\"") }
        try output.appendStatic(",\"args\":{\"flow\":")
        output.appendDecimal(id)
        try output.appendStatic("}}")
    }

    /// The `tid` of a recording thread: its index plus one, because viewers
    /// built on Linux conventions treat tid 0 as the idle ("swapper") thread.
    public static func tid(of thread: UInt32) -> UInt64 { UInt64(thread) + 1 }

    private func threadNameEvent(_ thread: UInt32) throws {
        try beginEvent()
        try output.appendStatic("{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":")
        output.appendDecimal(Self.tid(of: thread))
        try output.append(",\"args\":{\"name\":\"thread \(thread)\"}}")
        try beginEvent()
        try output.appendStatic("{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":1,\"tid\":")
        output.appendDecimal(Self.tid(of: thread))
        try output.append(",\"args\":{\"sort_index\":\(thread)}}")
    }
}
