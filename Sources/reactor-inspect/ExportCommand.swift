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
            help: ArgumentHelp("The output file. Default: the trace's path with .json.", valueName: "out.json"))
    var out: String?

    func run() throws {
        let destination = out ?? URL(fileURLWithPath: trace.path).deletingPathExtension().appendingPathExtension("json").path
        guard FileManager.default.createFile(atPath: destination, contents: nil),
              let handle = FileHandle(forWritingAtPath: destination) else {
            throw ValidationError("cannot write \(destination)")
        }
        defer { try? handle.close() }
        let exporter: ChromeTraceExporter
        do {
            exporter = try ChromeTraceExporter(output: ByteOutput(fileHandle: handle), traceName: CIFiles.displayName(trace.path))
        } catch {
            throw ValidationError("cannot write \(destination): \(error.localizedDescription)")
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
        } catch {
            throw ValidationError("cannot write \(destination): \(error.localizedDescription)")
        }
        Terminal.print("wrote \(destination) (\(exporter.eventsWritten) trace events from \(report.events) Reactor events)\n")
        try report.finish()
    }
}
