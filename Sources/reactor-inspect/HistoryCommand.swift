import ArgumentParser
import ReactorInspector

/// `reactor-inspect history TRACE NAME [--json]`.
struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "One node's values over time (old → new), each with the action that set it.",
        discussion: """
            NAME is a node's name (TodoStore.filter) or #id. The action is the store
            action at the root of the write: the one that wrote the property, or whose
            write made a computed recompute. The trace must be recorded with values on
            (REACTOR_TRACE_VALUES=N, or the samples' --trace-values N).

            Examples:
              reactor-inspect history out/todos.trace TodoStore.filter
              reactor-inspect history out/todos.trace TodoStore.todos --json \\
                | jq '.[].action'
            """ + MetricsHelp.pointer
    )

    @OptionGroup var trace: TraceArgument
    @OptionGroup var output: OutputOptions

    @Argument(help: ArgumentHelp("The node: its name or #id.", valueName: "name"))
    var name: String

    @Flag(help: "Print a JSON array of objects with at least timeNanoseconds, value and action (null when none).")
    var json = false

    func run() throws {
        let loaded = try trace.model(options: TraceModelOptions(valueHistoryOf: name), output: output)
        let report: ValueHistoryReport
        do {
            report = try ValueHistoryReport(model: loaded.value, name: name, path: trace.path)
        } catch {
            throw ValidationError(error.description)
        }
        Terminal.print(json ? try JSONText.encode(report.entries) : report.text(style: output.style))
        try loaded.finish()
    }
}
