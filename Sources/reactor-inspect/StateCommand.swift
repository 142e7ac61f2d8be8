import ArgumentParser
import ReactorInspector

/// `reactor-inspect state TRACE --at TIME|action:N [--filter NAME] [--json]`.
struct StateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "state",
        abstract: "Every node's value at one moment, and which computations were alive and what each read.",
        discussion: """
            --at takes a trace time (1.5ms, 200us, 2s), action:N, the moment the N-th
            store action (1-based, in the order they began as read; an action inside
            another is part of it) ended, or end, the trace's last event. --filter
            ignores case. A value is the last one the trace recorded for
            the node up to then; the trace must be recorded with values on
            (REACTOR_TRACE_VALUES=N, or the samples' --trace-values N).

            Examples:
              reactor-inspect state out/todos.trace --at action:3
              reactor-inspect state out/todos.trace --at 2ms --filter TodoStore
              reactor-inspect state out/todos.trace --at action:3 --json \\
                | jq '.[] | {name, value}'
            """ + MetricsHelp.pointer
    )

    @OptionGroup var trace: TraceArgument
    @OptionGroup var output: OutputOptions

    @Option(help: ArgumentHelp("The moment: a trace time (1.5ms), action:N (after the N-th action ended) or end.",
                               valueName: "time|action:N|end"))
    var at: String

    @Option(help: ArgumentHelp("Only nodes whose name contains this text (ignoring case).", valueName: "name"))
    var filter: String?

    @Flag(help: "Print a JSON array of objects with at least name, kind and value (null when never captured).")
    var json = false

    func validate() throws {
        if case let .failure(error) = TraceMoment.parse(at) { throw ValidationError(error.description) }
    }

    func run() throws {
        let moment = try TraceMoment.parse(at).get()
        let progress = output.progress(for: trace.path)
        let built: (TraceModel, ResolvedMoment, TraceReadReport)
        do {
            defer { progress?.finish() }
            built = try TraceFile.model(path: trace.path, at: moment, requiringValues: true,
                                       index: trace.indexUse, progress: progress?.update)
        } catch {
            throw ValidationError(error.description)
        }
        let (model, resolved, readReport) = built
        let report = StateReport(model: model, moment: resolved, filter: filter)
        if let filter, report.entries.isEmpty {
            let known = model.nodes.contains { StateReport.name($0.name, matches: filter) }
            let reason = known
                ? "no node whose name contains '\(TerminalEscaping.escape(filter))' was alive at \(moment)"
                : StateError.unknownName(filter, suggestions: []).description
            throw ValidationError(reason)
        }
        Terminal.print(json ? try JSONText.encode(report.entries)
                            : report.text(style: output.style, tracePath: trace.path))
        try readReport.finish()
    }
}
