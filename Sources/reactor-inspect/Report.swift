import ArgumentParser
import Foundation
import ReactorInspector

/// `reactor-inspect report TRACE -o OUT.html|OUT.md`.
struct Report: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write a self-contained profiling report (HTML) or a compact one for PR comments (Markdown).",
        discussion: """
        The HTML report is one file that loads nothing from the network: a summary, the
        hot computations with their causes, the actions and the reruns they caused, a
        histogram of rerun durations, a timeline of flushes and actions, and the
        dependency graph with the hottest nodes outlined. The format follows the
        output's extension (.html or .md) unless --format says otherwise.

        Examples:
          reactor-inspect report todos.trace -o profile.html
          reactor-inspect report todos.trace -o profile.md
          reactor-inspect report todos.trace --format md -o - >> "$GITHUB_STEP_SUMMARY"
        """
    )

    /// The report formats.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case html, md
    }

    @Argument(help: "The trace file.")
    var trace: String

    @Option(name: .shortAndLong, help: ArgumentHelp("The output file, or - for standard output.", valueName: "out.html|out.md"))
    var output: String

    @Option(help: "The format, when the output's extension does not say (html or md).")
    var format: Format?

    @Option(help: "How many computations the hot table lists.")
    var top = 20

    func validate() throws {
        if top < 1 { throw ValidationError("--top must be at least 1") }
        if format == nil, output == "-" { throw ValidationError("writing to standard output needs --format html or --format md") }
        if format == nil, !["html", "htm", "md", "markdown"].contains(URL(fileURLWithPath: output).pathExtension.lowercased()) {
            throw ValidationError("cannot tell the format of \(output): use a .html or .md name, or --format")
        }
    }

    func run() throws {
        let resolved = format ?? (["md", "markdown"].contains(URL(fileURLWithPath: output).pathExtension.lowercased()) ? .md : .html)
        let profile = CLIOutput.profile(trace)
        let graph = resolved == .html ? ReportGraph.svg(tracePath: trace) : nil
        let report = ProfileReport(profile: profile, traceName: CLIOutput.displayName(trace), graphSVG: graph, hotLimit: top)
        let text = resolved == .html ? report.html() : report.markdown(limit: min(top, 10))
        if output == "-" {
            print(text, terminator: "")
        } else {
            CLIOutput.write(text, to: output)
            print("wrote \(output)")
        }
    }
}
