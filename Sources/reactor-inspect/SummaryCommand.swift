import ArgumentParser
import ReactorInspector

/// `reactor-inspect summary TRACE [--json]`.
struct SummaryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "summary",
        abstract: "Counts, duration, nodes, flushes, actions, issues and the top computations.",
        discussion: """
            Examples:
              reactor-inspect summary out/todos.trace
              reactor-inspect summary out/todos.trace --json | jq .events
            """ + MetricsHelp.pointer
    )

    @OptionGroup var trace: TraceArgument
    @OptionGroup var output: OutputOptions

    @Flag(help: "Print JSON (at least: events, nodes, durationNanoseconds).")
    var json = false

    @Option(help: "How many computations and actions to list.")
    var top = 5

    func validate() throws {
        guard top >= 0 else { throw ValidationError("--top must be 0 or more") }
    }

    func run() throws {
        let loaded = try trace.model(output: output)
        let summary = SummaryReport(model: loaded.value, top: top, end: loaded.report.end,
                                    metadata: loaded.report.metadata, history: loaded.report.history)
        Terminal.print(json ? try JSONText.encode(summary) : summary.text(style: output.style))
        try loaded.finish()
    }
}
