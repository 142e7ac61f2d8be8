import ArgumentParser
import Foundation
import ReactorInspector

/// `reactor-inspect report TRACE -o OUT.html|OUT.md`.
struct ReportCommand: ParsableCommand {
    /// The report formats.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case html, md
    }

    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Write a self-contained profiling report (HTML) or a compact one for PR comments (Markdown).",
        discussion: """
            The HTML report is one file that loads nothing from the network: a summary, the
            hot computations with their causes, the actions and the reruns they caused, a
            histogram of rerun durations, a timeline of flushes and actions, and the
            dependency graph (rendered in process by Graphviz) with the hottest outlined.
            The format follows the output's extension (.html or .md) unless --format says.

            Examples:
              reactor-inspect report out/todos.trace -o profile.html
              reactor-inspect report out/todos.trace -o profile.md
              reactor-inspect report out/todos.trace --format md -o - >> "$GITHUB_STEP_SUMMARY"
            """
    )

    @OptionGroup var trace: TraceArgument
    @OptionGroup var output: OutputOptions

    @Option(name: [.short, .customLong("output")],
            help: ArgumentHelp("The output file, or - for standard output. An existing file is replaced (atomically); a device, FIFO or symlink is written through.", valueName: "out.html|out.md"))
    var out: String

    @Option(help: "The format, when the output's extension does not say (html or md).")
    var format: Format?

    @Option(help: "How many computations the hot table lists.")
    var top = 20

    @Option(name: .customLong("graph-top"), help: "How many of the hottest computations the graph draws, with their neighbours.")
    var graphTop = 40

    func validate() throws {
        if top < 1 { throw ValidationError("--top must be at least 1") }
        if graphTop < 1 { throw ValidationError("--graph-top must be at least 1") }
        if format == nil, out == "-" { throw ValidationError("writing to standard output needs --format html or --format md") }
        if format == nil, Self.format(of: out) == nil {
            throw ValidationError("cannot tell the format of \(out): use a .html or .md name, or --format")
        }
    }

    private static func format(of path: String) -> Format? {
        switch URL(fileURLWithPath: path).pathExtension.lowercased() {
        case "html", "htm": .html
        case "md", "markdown": .md
        default: nil
        }
    }

    func run() throws {
        let resolved = format ?? Self.format(of: out) ?? .html
        let file = try CIFiles.output(out, inputs: [trace.path])
        // One pass feeds both the CI profile and the inspector's model (for the graph).
        let profile = TraceProfile()
        let builder = TraceModelBuilder()
        let report = try trace.forEachEvent(output: output) { event in
            profile.record(event)
            if resolved == .html { builder.consume(event) }
        }
        var graph: String?
        if resolved == .html {
            do {
                graph = try ProfileReport.dependencyGraphSVG(model: builder.finish(), computations: graphTop)
            } catch {
                Terminal.standardError.write("reactor-inspect: warning: the report has no dependency graph: \(error)\n")
            }
        }
        let profileReport = ProfileReport(profile: profile, traceName: CIFiles.displayName(trace.path), graphSVG: graph, hotLimit: top)
        let text = resolved == .html ? profileReport.html() : profileReport.markdown(limit: min(top, 10))
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
