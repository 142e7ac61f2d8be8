import ArgumentParser
import Foundation
import ReactorInspector

/// `reactor-inspect diff BASE HEAD`: what changed between two runs.
struct Diff: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Compare two traces per computation and per action (matched by name).",
        discussion: """
        Shows the change in reruns and in time, absolute and in percent, for every
        computation and action, most impact first, plus the names that are new or gone.
        With --fail-on-regression PCT, exits 1 when any reruns or time grew by more than
        PCT percent (time changes under --min-time-ms are ignored as timer noise).

        Examples:
          reactor-inspect diff main.trace pr.trace
          reactor-inspect diff main.trace pr.trace --fail-on-regression 10
          reactor-inspect diff main.trace pr.trace --markdown > diff.md
          reactor-inspect diff main.trace pr.trace --json
        """
    )

    @Argument(help: "The base trace (before).")
    var base: String

    @Argument(help: "The head trace (after).")
    var head: String

    @Flag(help: "Print JSON instead of a table.")
    var json = false

    @Flag(help: "Print a Markdown table (for a PR comment) instead of a plain one.")
    var markdown = false

    @Option(name: .customLong("fail-on-regression"), help: ArgumentHelp("Exit 1 when anything regresses by more than this percentage.", valueName: "pct"))
    var failOnRegression: Double?

    @Option(name: .customLong("min-time-ms"), help: ArgumentHelp("Time changes smaller than this never count as regressions.", valueName: "ms"))
    var minimumTimeMilliseconds: Double = 0.1

    @Option(help: "How many rows to print per section.")
    var top = 30

    func validate() throws {
        if let failOnRegression, !(failOnRegression >= 0) { throw ValidationError("--fail-on-regression must be a percentage ≥ 0") }
        if !(minimumTimeMilliseconds >= 0) { throw ValidationError("--min-time-ms must be ≥ 0") }
        if top < 1 { throw ValidationError("--top must be at least 1") }
        if json && markdown { throw ValidationError("--json and --markdown cannot be combined") }
    }

    func run() throws {
        let baseProfile = CLIOutput.profile(base)
        let headProfile = CLIOutput.profile(head)
        let diff = TraceDiff(base: baseProfile, head: headProfile, regressionThresholdPercent: failOnRegression,
                             minimumTimeNanoseconds: UInt64(minimumTimeMilliseconds * 1e6))
        if json {
            print(try diff.json(basePath: base, headPath: head), terminator: "")
        } else if markdown {
            print(diff.markdown(basePath: CLIOutput.displayName(base), headPath: CLIOutput.displayName(head), limit: top), terminator: "")
        } else {
            print(diff.text(basePath: base, headPath: head, limit: top), terminator: "")
        }
        if diff.exitCode != 0 { throw ExitCode(diff.exitCode) }
    }
}
