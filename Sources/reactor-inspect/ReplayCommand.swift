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

            --last N prints the last N matching lines, in order. With the index beside the
            trace (docs/INSPECT.md, "The index"), replay reads only the chunks the filter's
            time window and --last need, from the snapshot before them; without it
            (--no-index, or a directory it cannot be written to), it reads the trace twice:
            once for each write's previous value in time order and each node's final name,
            then for the lines.

            Examples:
              reactor-inspect replay out/todos.trace
              reactor-inspect replay out/todos.trace --filter rerun --filter name:list
              reactor-inspect replay out/stress.trace --filter from:10ms --filter to:12ms
              reactor-inspect replay out/todos.trace --json
              reactor-inspect replay out/stress.trace --last 20 --filter name:effect47
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

    @Option(help: ArgumentHelp("Print only the last N matching lines (N ≥ 1).", valueName: "N"))
    var last: String?

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
        var lastLines: Int?
        if let last {
            guard let count = Int(last), count >= 1 else {
                throw ValidationError("--last must be a whole number of lines, at least 1 (not '\(last)')")
            }
            lastLines = count
        }
        let (report, _) = try TraceArgument.reading(trace.path, output: output) { progress throws(TraceFileError) in
            try TraceReplay.lines(path: trace.path, filter: replayFilter, style: output.style, json: json,
                                  last: lastLines, index: trace.indexUse, lookingAhead: !withoutLookahead,
                                  progress: progress) { Terminal.write($0) }
        }
        try report.finish()
    }
}
