import ArgumentParser
import ReactorInspector

/// `reactor-inspect replay TRACE [--filter …]`.
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "The event stream as text, one line an event, filtered by kind, name and time.",
        discussion: """
            Filters (repeatable; kinds add up, names add up, all must match):
              kind:WORD   created, named, stopped, depend, changed, invalidate,
                          rerun-begin, rerun-end, action-begin, action-end, flush-begin,
                          flush-end, issue, or a family: rerun, action, flush, node
              name:TEXT   events involving a node whose name contains TEXT
              from:TIME   events at or after TIME (1.5ms, 200us, 2s)
              to:TIME     events at or before TIME
              WORD        a kind if it names one, else a name

            Examples:
              reactor-inspect replay out/todos.trace
              reactor-inspect replay out/todos.trace --filter rerun --filter name:list
              reactor-inspect replay out/stress.trace --filter from:10ms --filter to:12ms
              reactor-inspect replay out/todos.trace --json
            """ + MetricsHelp.pointer
    )

    @OptionGroup var trace: TraceArgument
    @OptionGroup var output: OutputOptions

    @Option(name: .long, help: ArgumentHelp("A filter term (see below); repeatable.", valueName: "term"))
    var filter: [String] = []

    @Option(help: "Keep events of this kind or family (as kind:WORD); repeatable.")
    var kind: [String] = []

    @Option(help: "Keep events involving a node whose name contains this (as name:TEXT); repeatable.")
    var name: [String] = []

    @Option(help: "Keep events at or after this trace time.")
    var from: String?

    @Option(help: "Keep events at or before this trace time.")
    var to: String?

    @Flag(help: "Print one JSON object a line: timeNanoseconds, thread, kind, name and the event's fields.")
    var json = false

    /// For measuring what the lookahead pass costs (Benchmarks/README, "Replay"): one pass,
    /// old → new in file order and names as read so far, which docs/METRICS.md's rules forbid.
    @Flag(name: .customLong("without-lookahead"), help: .hidden)
    var withoutLookahead = false

    func run() throws {
        var replayFilter = ReplayFilter()
        var terms = filter + kind.map { "kind:\($0)" } + name.map { "name:\($0)" }
        if let from { terms.append("from:\(from)") }
        if let to { terms.append("to:\(to)") }
        do {
            try replayFilter.add(terms: terms)
        } catch {
            throw ValidationError(error.description)
        }
        // Old → new in time order across threads and final names need every value event and
        // name first: a pass of its own (an unreadable trace fails in the pass below, with its one line).
        let lookahead = withoutLookahead ? nil : try? TraceLookahead.read(path: trace.path)
        var formatter = ReplayFormatter(filter: replayFilter, style: output.style, json: json, lookahead: lookahead)
        // Lines are built as bytes and written a chunk's worth at a time, from
        // where they were built: no String per line, no copy.
        // Plain events, a chunk at a time, read in place: no TraceEvent per line either.
        // Nothing after to:TIME is shown: with the index, the trace is read only up to there.
        // A trace still being recorded may have grown since the lookahead's pass: what it did not read is left out.
        var left = lookahead?.events ?? .max
        let report = try TraceArgument.reading(trace.path, output: output) { progress throws(TraceFileError) in
            try TraceFile.forEachBatch(path: trace.path, until: replayFilter.to, index: trace.indexUse,
                                       progress: progress) { batch in
                guard left > 0 else { return }
                left -= batch.count
                formatter.withLines(of: batch) { Terminal.write($0) }
            }
        }
        try report.finish()
    }
}
