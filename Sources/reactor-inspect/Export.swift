import ArgumentParser
import Foundation
import ReactorInspector

/// `reactor-inspect export TRACE --format chrome -o OUT.json`.
struct Export: ParsableCommand {
    /// The export formats.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case chrome
    }

    static let configuration = CommandConfiguration(
        abstract: "Export a trace as Chrome Trace Event JSON for ui.perfetto.dev or chrome://tracing.",
        discussion: """
        Reruns, actions and flushes become nested slices on their thread's track, changes
        and invalidations instant events, and flow arrows link each change to the
        invalidation and the rerun it caused. The export streams: memory does not grow
        with the number of events.

        Examples:
          reactor-inspect export todos.trace --format chrome -o todos.json
          (then open https://ui.perfetto.dev and drop todos.json on it)
        """
    )

    @Argument(help: "The trace file.")
    var trace: String

    @Option(help: "The output format.")
    var format: Format = .chrome

    @Option(name: .shortAndLong, help: ArgumentHelp("The output file (default: the trace's name with .json).", valueName: "out.json"))
    var output: String?

    func run() throws {
        let reader = CLIOutput.openTrace(trace)
        let destination = output ?? URL(fileURLWithPath: trace).deletingPathExtension().appendingPathExtension("json").path
        guard FileManager.default.createFile(atPath: destination, contents: nil),
              let handle = FileHandle(forWritingAtPath: destination) else {
            CLIOutput.fail("cannot write \(destination)")
        }
        defer { try? handle.close() }
        do {
            let exporter = try ChromeTraceExporter(output: ByteOutput(fileHandle: handle), traceName: CLIOutput.displayName(trace))
            for event in reader { try exporter.record(event) }
            try exporter.finish()
            if let truncation = reader.truncation {
                CLIOutput.warn("\(trace): \(truncation); exported the \(reader.eventsRead) events before it")
            }
            print("wrote \(destination) (\(exporter.eventsWritten) trace events from \(reader.eventsRead) Reactor events)")
        } catch {
            CLIOutput.fail("cannot write \(destination): \(error.localizedDescription)")
        }
    }
}
