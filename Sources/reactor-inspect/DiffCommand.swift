import ArgumentParser
import Foundation
import ReactorInspector

/// `reactor-inspect diff BASE HEAD`: what changed between two runs.
struct DiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Compare two traces per computation and per action (matched by name).",
        discussion: """
            Shows the change in reruns and in time, absolute and in percent, for every
            computation and action, most impact first, plus the names that are new or
            gone. With --fail-on-regression PCT, exits 1 when any reruns or time grew by
            more than PCT percent (time changes under --min-time-ms are ignored as timer
            noise).

            Examples:
              reactor-inspect diff main.trace pr.trace
              reactor-inspect diff main.trace pr.trace --fail-on-regression 10
              reactor-inspect diff main.trace pr.trace --markdown >> "$GITHUB_STEP_SUMMARY"
              reactor-inspect diff main.trace pr.trace --json
            """ + MetricsHelp.pointer
    )

    @Argument(help: ArgumentHelp("The base trace (before).", valueName: "base"))
    var base: String

    @Argument(help: ArgumentHelp("The head trace (after).", valueName: "head"))
    var head: String

    @OptionGroup var output: OutputOptions

    @Flag(help: "Print JSON instead of a table.")
    var json = false

    @Flag(help: "Print a Markdown table (for a PR comment) instead of a plain one.")
    var markdown = false

    @Option(name: .customLong("fail-on-regression"),
            help: ArgumentHelp("Exit 1 when anything regresses by more than this percentage.", valueName: "pct"))
    var failOnRegression: Double?

    @Option(name: .customLong("min-time-ms"),
            help: ArgumentHelp("Typical-run changes smaller than this are noise (with the 25% rule; docs/PROFILING_IN_CI.md).",
                               valueName: "ms"))
    var minimumTimeMilliseconds: Double = 0.001

    @Option(help: "How many rows to print per section.")
    var top = 30

    @Flag(name: .customLong("no-index"),
          help: "Answer by reading the traces only: neither use nor write the indexes beside them (TRACE.rindex).")
    var noIndex = false

    func validate() throws {
        if let failOnRegression, !(failOnRegression >= 0) { throw ValidationError("--fail-on-regression must be a percentage ≥ 0") }
        if !(minimumTimeMilliseconds >= 0) { throw ValidationError("--min-time-ms must be ≥ 0") }
        if top < 1 { throw ValidationError("--top must be at least 1") }
        if json && markdown { throw ValidationError("--json and --markdown cannot be combined") }
    }

    func run() throws {
        // Each trace's own index, when it keeps the profile.
        let (baseProfile, _, baseReport) = try TraceArgument.profile(path: base, noIndex: noIndex, output: output)
        let (headProfile, _, headReport) = try TraceArgument.profile(path: head, noIndex: noIndex, output: output)
        let diff = TraceDiff(base: baseProfile, head: headProfile, regressionThresholdPercent: failOnRegression,
                             minimumTimeNanoseconds: UInt64(minimumTimeMilliseconds * 1e6))
        if json {
            Terminal.print(try diff.json(basePath: base, headPath: head))
        } else if markdown {
            Terminal.print(diff.markdown(basePath: CIFiles.displayName(base), headPath: CIFiles.displayName(head), limit: top))
        } else {
            Terminal.print(diff.text(basePath: base, headPath: head, limit: top))
        }
        if let notice = baseReport.trailingBytesNotice { Terminal.standardError.write("reactor-inspect: warning: \(notice)\n") }
        if let notice = baseReport.stillRecordingNotice { Terminal.standardError.write("reactor-inspect: warning: \(notice)\n") }
        if let warning = baseReport.warning { Terminal.standardError.write("reactor-inspect: warning: \(warning)\n") }
        try headReport.finish(requiringWhole: true)
        if baseReport.warning != nil || baseReport.stillRecording { throw ExitCode(2) }
        if diff.exitCode != 0 { throw ExitCode(diff.exitCode) }
    }
}
