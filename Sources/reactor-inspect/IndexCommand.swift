import ArgumentParser
import Foundation
import ReactorInspector

/// `reactor-inspect index TRACE`.
struct IndexCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "index",
        abstract: "Build the index beside a trace (TRACE.rindex): hot, summary and graph then read only it, questions about a moment the trace only up to it.",
        discussion: """
            Any command's first pass leaves the index and later ones use it; this builds
            (or rebuilds) it ahead: the chunk table, the whole trace's plain model and
            snapshots of it for questions about a moment. The profile (report, check,
            diff) and the explanations (why) that earlier questions added to an index of
            this trace are kept; otherwise the first such question adds them. The index is
            a cache derived from the trace alone: a stale or damaged one is rebuilt,
            --no-index ignores it. docs/INSPECT.md ("The index") says what it holds and
            costs.

            Example:
              reactor-inspect index out/stress.trace
            """
    )

    @Argument(help: ArgumentHelp("The trace file.", valueName: "trace"))
    var path: String

    @OptionGroup var output: OutputOptions

    func run() throws {
        let progress = output.progress(for: path)
        let built: (TraceIndex, TraceReadReport)
        do {
            defer { progress?.finish() }
            built = try TraceIndex.build(forTrace: path, progress: progress?.update)
        } catch let error as TraceFileError {
            throw ValidationError(error.description)
        } catch {
            throw ValidationError("\(TraceIndex.path(forTrace: path)): \(error)")
        }
        let (index, report) = built
        let size = index.fileSize
        let share = index.identity.size == 0 ? 0 : Double(size) * 100 / Double(index.identity.size)
        Terminal.print("\(TerminalEscaping.escape(TraceIndex.path(forTrace: path))): \(index.batches.count) chunks of "
                       + "\(report.events) events\(Self.kept(index)), \(size) bytes (\(String(format: "%.2f", share))% of the trace)\n")
        try report.finish()
    }

    /// What the index keeps beside its chunk table, as words for the line printed.
    static func kept(_ index: TraceIndex) -> String {
        guard index.keepsModel else { return "" }
        var parts = ["the whole trace's model"]
        if index.keepsSnapshots { parts.append("snapshots") }
        if index.keepsProfile { parts.append("the profile kept") }
        if index.explainsEveryComputation { parts.append("every computation's explanation") }
        let explained = index.explainedTargets.count
        if explained > 0 { parts.append("\(explained) kept explanation\(explained == 1 ? "" : "s")") }
        return " and " + (parts.count == 1 ? parts[0] : parts.dropLast().joined(separator: ", ") + " and " + parts.last!)
    }
}
