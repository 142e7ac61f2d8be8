import ArgumentParser
import Foundation
import ReactorInspector

/// `reactor-inspect export TRACE --format chrome -o OUT.json`.
struct ExportCommand: ParsableCommand {
    /// The export formats.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case chrome
    }

    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export a trace as Chrome Trace Event JSON for ui.perfetto.dev or chrome://tracing.",
        discussion: """
            Reruns, actions and flushes become nested slices on their thread's track, changes
            and invalidations instant events, and flow arrows link each change to the
            invalidation and the rerun it caused. The export streams: memory does not grow
            with the number of events.

            Examples:
              reactor-inspect export out/todos.trace --format chrome -o todos.json
              (then open https://ui.perfetto.dev and drop todos.json on it)
            """ + MetricsHelp.pointer
    )

    @OptionGroup var trace: TraceArgument
    @OptionGroup var output: OutputOptions

    @Option(help: "The output format.")
    var format: Format = .chrome

    @Option(name: [.short, .customLong("output")],
            help: ArgumentHelp("Where to write; '-' for stdout. Default: the trace's path with .json. An existing file is replaced (atomically); a device, FIFO or symlink is written through.", valueName: "out.json"))
    var out: String?

    func run() throws {
        let destination = out ?? CIFiles.replacingExtension(of: trace.path, with: "json")
        let file = try CIFiles.output(destination, inputs: [trace.path])
        let exporter: ChromeTraceExporter
        do {
            exporter = try ChromeTraceExporter(output: ByteOutput { try file.write($0) }, traceName: CIFiles.displayName(trace.path))
        } catch {
            throw ValidationError("\(error)")
        }
        // The reader's callback cannot throw: keep the first write error and stop writing.
        var writeError: (any Error)?
        let report = try trace.forEachEvent(output: output) { event in
            guard writeError == nil else { return }
            do { try exporter.record(event) } catch { writeError = error }
        }
        do {
            if let writeError { throw writeError }
            try exporter.finish()
            try file.commit()
        } catch {
            throw ValidationError("\(error)")
        }
        if !file.isStandardOutput {
            Terminal.print("wrote \(destination) (\(exporter.eventsWritten) trace events from \(report.events) Reactor events)\n")
        }
        try report.finish()
    }
}
