import ArgumentParser
import Foundation
import ReactorInspector
import ReactorTraceFormat

/// `reactor-inspect export TRACE --format chrome|otlp -o OUT.json`.
struct ExportCommand: ParsableCommand {
    /// The export formats.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case chrome
        case otlp
    }

    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export a trace as Chrome Trace Event JSON (Perfetto) or as OpenTelemetry spans (OTLP/JSON).",
        discussion: """
            chrome: reruns, actions and flushes become nested slices on their thread's
            track, changes and invalidations instant events, and flow arrows link each
            change to the invalidation and the rerun it caused. Open the file in
            https://ui.perfetto.dev.

            otlp: an OTLP/JSON ExportTraceServiceRequest, one OTel trace per recording:
            runs, actions and flushes are spans nested per thread under a root span, each
            rerun links to the span where the change that invalidated it happened, and
            changes, invalidations and issues are span events. service.name is the trace
            file's name without its extension unless --service-name is given. Ids derive
            from the trace, so exporting it again gives the same file. Send it to a
            collector's OTLP/HTTP port:
              curl -X POST -H 'Content-Type: application/json' --data @out.json \\
                http://localhost:4318/v1/traces

            Both exports stream the events: memory grows with nodes, not events.

            Examples:
              reactor-inspect export out/todos.trace --format chrome -o todos.json
              reactor-inspect export out/todos.trace --format otlp -o todos.otlp.json
            """ + MetricsHelp.pointer
    )

    @OptionGroup var trace: TraceArgument
    @OptionGroup var output: OutputOptions

    @Option(help: "The output format.")
    var format: Format = .chrome

    @Option(name: [.short, .customLong("output")],
            help: ArgumentHelp("Where to write; '-' for stdout. Default: the trace's path with .json (chrome) or .otlp.json (otlp). An existing file is replaced (atomically); a device, FIFO or symlink is written through.", valueName: "out.json"))
    var out: String?

    @Option(help: ArgumentHelp("otlp: the resource's service.name. Default: the trace file's name without its extension.", valueName: "name"))
    var serviceName: String?

    func validate() throws {
        if serviceName != nil, format != .otlp { throw ValidationError("--service-name applies to --format otlp only") }
        if let serviceName, serviceName.isEmpty { throw ValidationError("--service-name must not be empty") }
    }

    func run() throws {
        if format == .otlp { return try exportOTLP() }
        let destination = out ?? CIFiles.replacingExtension(of: trace.path, with: "json")
        let file = try CIFiles.output(destination, inputs: [trace.path])
        let exporter: ChromeTraceExporter
        do {
            exporter = try ChromeTraceExporter(output: ByteOutput { try file.write($0) }, traceName: CIFiles.displayName(trace.path))
        } catch {
            throw ValidationError("\(error)")
        }
        let report = try streamEvents(into: file, exporter: exporter, tracksValues: false, finish: exporter.finish)
        if !file.isStandardOutput {
            Terminal.print("wrote \(destination) (\(exporter.eventsWritten) trace events from \(report.events) Reactor events)\n")
        }
        try report.finish()
    }

    /// Two passes: the model first (names and counts every view shares), then the spans.
    private func exportOTLP() throws {
        let destination = out ?? CIFiles.replacingExtension(of: trace.path, with: "otlp.json")
        let loaded = try trace.model(output: output)
        let header: TraceHeader
        do {
            header = try TraceFile.header(path: trace.path)
        } catch {
            throw ValidationError(error.description)
        }
        let fileName = CIFiles.displayName(trace.path)
        let service = serviceName ?? URL(fileURLWithPath: trace.path).deletingPathExtension().lastPathComponent
        let file = try CIFiles.output(destination, inputs: [trace.path])
        let exporter: OTLPTraceExporter
        do {
            exporter = try OTLPTraceExporter(model: loaded.value, output: ByteOutput { try file.write($0) },
                                             options: OTLPExportOptions(serviceName: service.isEmpty ? fileName : service,
                                                                        header: header, traceFile: fileName))
        } catch {
            throw ValidationError("\(error)")
        }
        let report = try streamEvents(into: file, exporter: exporter, tracksValues: true, finish: exporter.finish)
        if !file.isStandardOutput {
            let spans = exporter.spansWritten
            Terminal.print("wrote \(destination) (\(spans.values.reduce(0, +)) spans: \(spans[.run] ?? 0) runs, "
                           + "\(spans[.action] ?? 0) actions, \(spans[.flush] ?? 0) flushes, 1 recording)\n")
        }
        try report.finish()
    }

    /// Imports the trace once, handing each event to an exporter that writes `file`, then
    /// commits the file. The exporter keeps its first write error, stops writing, and
    /// `finish` throws it.
    private func streamEvents(into file: OutputFile, exporter: some ImportedEventVisitor, tracksValues: Bool,
                              finish: () throws -> Void) throws -> TraceReadReport {
        let importer = TraceModelBuilder(options: TraceModelOptions(tracksValues: tracksValues))
        var visitor = exporter
        let report = try trace.forEachBatch(output: output) { importer.consume($0, visiting: &visitor) }
        do {
            try finish()
            try file.commit()
        } catch {
            throw ValidationError("\(error)")
        }
        return report
    }
}
