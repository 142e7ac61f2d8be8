import ArgumentParser
import ReactorInspector

/// `reactor-inspect why TRACE COMPUTATION`.
struct WhyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "why",
        abstract: "The causal chain of each run of a computation: action → changed → invalidated → reran.",
        discussion: """
            Chains go through computeds (invalidated, recomputed, new value), nested
            computations (recreated by their parent's rerun, stopped with it) and
            explicit invalidate() calls. Runs are grouped by chain, then listed.

            Examples:
              reactor-inspect why out/todos.trace list
              reactor-inspect why out/counter.trace label --limit 3
              reactor-inspect why out/todos.trace '#42' --json
            """ + MetricsHelp.pointer
    )

    @OptionGroup var trace: TraceArgument

    @Argument(help: ArgumentHelp("The computation's name (as hot prints it), or #id.", valueName: "computation"))
    var computation: String

    @OptionGroup var output: OutputOptions

    @Option(help: "How many runs to list one by one (all are counted and grouped).")
    var limit = 20

    @Flag(help: "Print JSON.")
    var json = false

    func validate() throws {
        guard limit >= 0 else { throw ValidationError("--limit must be 0 or more") }
    }

    func run() throws {
        let options = TraceModelOptions(explaining: [computation], whyEntryLimit: limit)
        let loaded = try trace.model(options: options, output: output)
        guard var report = loaded.value.why(computation), !report.isUnknown else {
            let suggestions = loaded.value.suggestions(for: computation)
            let hint = suggestions.isEmpty ? "; `reactor-inspect hot` lists them"
                : " (did you mean \(suggestions.map { "'\($0)'" }.joined(separator: ", "))?)"
            throw ValidationError("no computation named '\(computation)' in \(trace.path)\(hint)")
        }
        report.attachIssues(loaded.value.issues)
        Terminal.print(json ? try JSONText.encode(report) : report.text(style: output.style))
        try loaded.finish()
    }
}
