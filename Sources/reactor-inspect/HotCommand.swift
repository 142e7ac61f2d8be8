import ArgumentParser
import ReactorInspector

extension HotOrder: ExpressibleByArgument {}

/// `reactor-inspect hot TRACE [--top N] [--by reruns|time] [--json]`.
struct HotCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hot",
        abstract: "The computations that reran most or took longest, with p50/p99/max and top causes.",
        discussion: """
            Instances of one computation (same name and kind) are counted together;
            reruns are runs after the first.

            Examples:
              reactor-inspect hot out/todos.trace
              reactor-inspect hot out/stress.trace --by time --top 20
              reactor-inspect hot out/counter.trace --json
            """ + MetricsHelp.pointer
    )

    @OptionGroup var trace: TraceArgument
    @OptionGroup var output: OutputOptions

    @Option(help: "How many computations to list.")
    var top = 10

    @Option(help: "Rank by reruns or by total run time (time).")
    var by: HotOrder = .reruns

    @Flag(help: "Print a JSON array (name, reruns, totalNanoseconds, maxNanoseconds, topCauses, …).")
    var json = false

    func validate() throws {
        guard top > 0 else { throw ValidationError("--top must be at least 1") }
    }

    func run() throws {
        let loaded = try trace.model(output: output)
        let report = HotReport(model: loaded.value, by: by, top: top)
        Terminal.print(json ? try JSONText.encode(report.entries) : report.text(style: output.style))
        try loaded.finish()
    }
}
