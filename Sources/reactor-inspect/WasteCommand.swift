import ArgumentParser
import ReactorInspector

/// `reactor-inspect waste TRACE [--json]`: reruns that were not needed.
struct WasteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "waste",
        abstract: "Reruns that read only values equal to their previous run's, the writes behind them and the fix.",
        discussion: """
            A rerun is unneeded when every value it read equals what the same computation
            read in its previous run (a non-Equatable value written again, a subject that
            re-sent a value, state replaced with an equal copy). Ranked by the time spent
            in unneeded reruns. Computeds that recomputed an equal value (cut off by
            Equatable, but paid for) are listed apart. Judging a rerun needs the values:
            record with REACTOR_TRACE_VALUES=200 (or TraceRecorder.Options(values:)).

            Examples:
              reactor-inspect waste out/todos.trace
              reactor-inspect waste out/todos.trace --json | jq '.[0].writes'
            """ + MetricsHelp.pointer
    )

    @OptionGroup var trace: TraceArgument
    @OptionGroup var output: OutputOptions

    @Flag(help: "Print a JSON array (name, unneededReruns, unneededNanoseconds, equalResults, writes, fix, …).")
    var json = false

    func run() throws {
        let profile = TraceProfile()
        let report = try trace.forEachEvent(output: output) { profile.record($0) }
        profile.countUnreadEvents(of: report)
        let waste = WasteReport(profile: profile)
        if json {
            Terminal.print(try JSONText.encode(waste.entries))
            if !waste.hasValues || waste.undecidedReruns > 0 {
                Terminal.standardError.write("reactor-inspect: note: \(waste.decidability)\n")
            }
        } else {
            Terminal.print(waste.text(style: output.style))
        }
        try report.finish()
    }
}
