import ArgumentParser
import ReactorInspector

/// `reactor-inspect`: answers from a Reactor trace — what ran, how often, how
/// long, why, and how it is wired.
@main
struct ReactorInspect: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reactor-inspect",
        abstract: "Analyse Reactor traces: hot computations, why they reran, the event stream, the dependency graph, CI budgets, diffs, Perfetto export and reports.",
        discussion: """
            Record a trace with `try TraceRecorder.start(path:)` or
            REACTOR_TRACE=path, then:

              reactor-inspect summary out/todos.trace
              reactor-inspect hot out/todos.trace --by time --top 5
              reactor-inspect why out/todos.trace list
              reactor-inspect replay out/todos.trace --filter rerun --filter name:list
              reactor-inspect graph out/todos.trace            # writes out/todos.svg
              reactor-inspect check out/todos.trace --budget budget.json \\
                --junit out/budget.xml
              reactor-inspect diff base.trace head.trace --fail-on-regression 10
              reactor-inspect export out/todos.trace --format chrome -o out/todos.json
              reactor-inspect report out/todos.trace -o out/report.html

            Times are trace times: 1.5ms, 200us, 2s (a plain number means milliseconds).

            Exit status: 0 on success, 1 when check finds a budget exceeded or diff a
            regression, 2 for bad input (unreadable, damaged or foreign trace, bad flag,
            unknown name), with one line on stderr.
            """ + MetricsHelp.pointer,
        subcommands: [SummaryCommand.self, HotCommand.self, WhyCommand.self, ReplayCommand.self, GraphCommand.self,
                      CheckCommand.self, DiffCommand.self, ExportCommand.self, ReportCommand.self, TopCommand.self,
                      StateCommand.self, HistoryCommand.self, ServeCommand.self, IndexCommand.self]
    )

    /// Runs the command; every failure is one line on stderr and exit status 2
    /// (help and `ExitCode`s thrown by subcommands keep their meaning).
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let code as ExitCode {
            Terminal.exit(code.rawValue)
        } catch {
            if exitCode(for: error) == .success { Self.exit(withError: error) }
            let message = message(for: error)
                .split(separator: "\n", omittingEmptySubsequences: true).first.map(String.init) ?? "\(error)"
            Terminal.standardError.write("reactor-inspect: error: \(message)\n")
            Terminal.exit(2)
        }
    }
}
