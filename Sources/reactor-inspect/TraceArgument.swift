import ArgumentParser
import ReactorInspector
import ReactorTraceFormat

/// The trace file argument, and reading it: errors become one line and exit
/// status 2, a damaged trace is read up to the damage with a warning line.
struct TraceArgument: ParsableArguments {
    @Argument(help: ArgumentHelp("The trace file (written by TraceRecorder or REACTOR_TRACE=path).", valueName: "trace"))
    var path: String

    @Flag(name: .customLong("no-index"),
          help: "Answer by reading the trace only: neither use nor write the index beside it (TRACE.rindex).")
    var noIndex = false

    /// How the command may use the index beside the trace: not at all with
    /// `--no-index`; otherwise with its one note (an index not used, or not written) on stderr.
    var indexUse: TraceIndexUse { Self.indexUse(noIndex: noIndex) }

    /// The index use of a trace argument with or without `--no-index`.
    static func indexUse(noIndex: Bool) -> TraceIndexUse {
        noIndex ? .none : .automatic(note: { Terminal.standardError.write("reactor-inspect: note: \($0)\n") })
    }

    /// The whole trace's profile (``TraceFile/profile(path:index:actionTimeline:progress:)``): from the index
    /// when it keeps one, else by a pass.
    func profile(actionTimeline: Bool = false, output: OutputOptions) throws
        -> (figures: ProfileFigures, actionTimeline: ActionTimeline?, report: TraceReadReport) {
        try Self.profile(path: path, noIndex: noIndex, actionTimeline: actionTimeline, output: output)
    }

    /// The profile of the trace at `path` (for commands that read more than one trace).
    static func profile(path: String, noIndex: Bool, actionTimeline: Bool = false, output: OutputOptions) throws
        -> (figures: ProfileFigures, actionTimeline: ActionTimeline?, report: TraceReadReport) {
        try reading(path, output: output) { progress throws(TraceFileError) in
            try TraceFile.profile(path: path, index: indexUse(noIndex: noIndex), actionTimeline: actionTimeline,
                                  progress: progress)
        }
    }

    /// Builds the model in one streaming pass.
    func model(options: TraceModelOptions = TraceModelOptions(), output: OutputOptions) throws -> Loaded<TraceModel> {
        let (model, report) = try Self.reading(path, output: output) { progress throws(TraceFileError) in
            try TraceFile.model(path: path, options: options, index: indexUse, progress: progress)
        }
        return Loaded(value: model, report: report)
    }

    /// Streams the events to `body`.
    func forEachEvent(output: OutputOptions, _ body: (TraceEvent) -> Void) throws -> TraceReadReport {
        try Self.forEachEvent(path: path, output: output, body)
    }

    /// Streams the trace at `path` into `body` (for commands that read more than one trace).
    static func forEachEvent(path: String, output: OutputOptions, _ body: (TraceEvent) -> Void) throws -> TraceReadReport {
        try reading(path, output: output) { progress throws(TraceFileError) in
            try TraceFile.forEachEvent(path: path, progress: progress, body)
        }
    }

    /// Runs `read` on the trace at `path` with a progress line on stderr (when
    /// it is a terminal); an unreadable trace becomes one line and exit status 2.
    static func reading<Value>(_ path: String, output: OutputOptions,
                               _ read: (((Int) -> Void)?) throws(TraceFileError) -> Value) throws -> Value {
        let progress = output.progress(for: path)
        defer { progress?.finish() }
        do {
            return try read(progress?.update)
        } catch {
            throw ValidationError(error.description)
        }
    }
}

extension TraceArgument {
    /// Lends the events to `body` a batch at a time, read in place.
    func forEachBatch(output: OutputOptions, _ body: (borrowing TraceEventBatch) -> Void) throws -> TraceReadReport {
        try Self.reading(path, output: output) { progress throws(TraceFileError) in
            try TraceFile.forEachBatch(path: path, until: nil, index: indexUse, progress: progress, body)
        }
    }
}

/// Something read from a trace, and how reading went.
struct Loaded<Value> {
    let value: Value
    let report: TraceReadReport

    /// Prints the warning of a damaged trace and fails with status 2 after the
    /// output was written, so scripts notice; an intact trace does nothing. A
    /// trace still being recorded gets a note, or with `requiringWhole` (the
    /// gates: `check`, `diff`) a warning and status 2 as an unfinished one does.
    func finish(requiringWhole: Bool = false) throws {
        if let notice = report.trailingBytesNotice {
            Terminal.standardError.write("reactor-inspect: warning: \(notice)\n")
        }
        if let notice = report.stillRecordingNotice {
            Terminal.standardError.write("reactor-inspect: \(requiringWhole ? "warning" : "note"): \(notice)\n")
            if requiringWhole { throw ExitCode(2) }
        }
        if let warning = report.warning {
            Terminal.standardError.write("reactor-inspect: warning: \(warning)\n")
            throw ExitCode(2)
        }
    }
}

extension TraceReadReport {
    /// As ``Loaded/finish(requiringWhole:)``.
    func finish(requiringWhole: Bool = false) throws {
        try Loaded(value: (), report: self).finish(requiringWhole: requiringWhole)
    }
}
