import ArgumentParser
import ReactorInspector
import ReactorTrace

/// The trace file argument, and reading it: errors become one line and exit
/// status 2, a damaged trace is read up to the damage with a warning line.
struct TraceArgument: ParsableArguments {
    @Argument(help: ArgumentHelp("The trace file (written by TraceRecorder or REACTOR_TRACE=path).", valueName: "trace"))
    var path: String

    /// Builds the model in one streaming pass.
    func model(options: TraceModelOptions = TraceModelOptions(), output: OutputOptions) throws -> Loaded<TraceModel> {
        let progress = output.progress(for: path)
        defer { progress?.finish() }
        do {
            let (model, report) = try TraceFile.model(path: path, options: options, progress: progress?.update)
            return Loaded(value: model, report: report)
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// Streams the events to `body`.
    func forEachEvent(output: OutputOptions, _ body: (TraceEvent) -> Void) throws -> TraceReadReport {
        let progress = output.progress(for: path)
        defer { progress?.finish() }
        do {
            return try TraceFile.forEachEvent(path: path, progress: progress?.update, body)
        } catch {
            throw ValidationError(error.description)
        }
    }
}

extension TraceArgument {
    /// Lends the events to `body` a batch at a time, read in place.
    func forEachBatch(output: OutputOptions, _ body: (borrowing TraceEventBatch) -> Void) throws -> TraceReadReport {
        let progress = output.progress(for: path)
        defer { progress?.finish() }
        do {
            return try TraceFile.forEachBatch(path: path, progress: progress?.update, body)
        } catch {
            throw ValidationError(error.description)
        }
    }
}

/// Something read from a trace, and how reading went.
struct Loaded<Value> {
    let value: Value
    let report: TraceReadReport

    /// Prints the warning of a damaged trace and fails with status 2 after the
    /// output was written, so scripts notice; an intact trace does nothing.
    func finish() throws {
        if let warning = report.warning {
            Terminal.standardError.write("reactor-inspect: warning: \(warning)\n")
            throw ExitCode(2)
        }
    }
}

extension TraceReadReport {
    /// As ``Loaded/finish()``.
    func finish() throws {
        try Loaded(value: (), report: self).finish()
    }
}
