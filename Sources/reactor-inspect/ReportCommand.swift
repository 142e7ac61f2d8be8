import ArgumentParser
import Foundation
import ReactorInspector

/// `reactor-inspect report TRACE -o OUT.html|OUT.md`.
struct ReportCommand: ParsableCommand {
    /// The report formats.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case html, md, json
    }

    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Write a self-contained profiling report (HTML), a compact one for PR comments (Markdown), or its figures as JSON.",
        discussion: """
            The HTML report is one file that loads nothing from the network: a summary,
            the hot computations with their causes, the actions and the reruns they
            caused, a histogram of rerun durations, a timeline of flushes and actions, and
            the dependency graph (rendered in process by Graphviz) with the hottest
            outlined. The format follows the output's extension (.html, .md or .json)
            unless --format says; JSON has the totals and a `computations` array of the
            shared records.

            Examples:
              reactor-inspect report out/todos.trace -o profile.html
              reactor-inspect report out/todos.trace -o profile.md
              reactor-inspect report out/todos.trace --format md -o - \\
                >> "$GITHUB_STEP_SUMMARY"
              reactor-inspect report out/todos.trace --format json -o -
            """ + MetricsHelp.pointer
    )

    @OptionGroup var trace: TraceArgument
    @OptionGroup var output: OutputOptions

    @Option(name: [.short, .customLong("output")],
            help: ArgumentHelp("The output file, or - for standard output. An existing file is replaced (atomically); a device, FIFO or symlink is written through.", valueName: "out.html|out.md|out.json"))
    var out: String

    @Option(help: "The format, when the output's extension does not say (html, md or json).")
    var format: Format?

    @Option(help: "How many computations the hot table lists.")
    var top = 20

    @Option(name: .customLong("graph-top"), help: "How many of the hottest computations the graph draws, with their neighbours.")
    var graphTop = 40

    func validate() throws {
        if top < 1 { throw ValidationError("--top must be at least 1") }
        if graphTop < 1 { throw ValidationError("--graph-top must be at least 1") }
        if format == nil, out == "-" { throw ValidationError("writing to standard output needs --format html, md or json") }
        if format == nil, Self.format(of: out) == nil {
            throw ValidationError("cannot tell the format of \(out): use a .html, .md or .json name, or --format")
        }
    }

    private static func format(of path: String) -> Format? {
        switch URL(fileURLWithPath: path).pathExtension.lowercased() {
        case "html", "htm": .html
        case "md", "markdown": .md
        case "json": .json
        default: nil
        }
    }

    func run() throws {
        let resolved = format ?? Self.format(of: out) ?? .html
        let file = try CIFiles.output(out, inputs: [trace.path])
        // One pass, or the index: the profile holds the trace's model, which the graph reads too.
        let (profile, timeline, report) = try trace.profile(actionTimeline: resolved == .html, output: output)
        var graph: String?
        if resolved == .html {
            do {
                graph = try ProfileReport.dependencyGraphSVG(model: profile.model, computations: graphTop)
            } catch {
                Terminal.standardError.write("reactor-inspect: warning: the report has no dependency graph: \(error)\n")
            }
        }
        let profileReport = ProfileReport(profile: profile, traceName: CIFiles.displayName(trace.path), graphSVG: graph, hotLimit: top,
                                          actionTimeline: timeline)
        let text = switch resolved {
        case .html: profileReport.html()
        case .md: profileReport.markdown(limit: min(top, 10))
        case .json: try profileReport.json()
        }
        do {
            try file.write(text)
            try file.commit()
        } catch {
            throw ValidationError(error.description)
        }
        if !file.isStandardOutput { Terminal.print("wrote \(out)\n") }
        try report.finish()
    }
}
