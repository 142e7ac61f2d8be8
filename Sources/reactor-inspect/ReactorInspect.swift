import ArgumentParser
import Foundation

/// `reactor-inspect`: answers questions about a Reactor trace.
@main
struct ReactorInspect: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reactor-inspect",
        abstract: "Analyse Reactor traces: budgets for CI, diffs, Chrome/Perfetto export and reports.",
        subcommands: [Check.self, Diff.self, Export.self, Report.self]
    )

    /// Parses and runs; every failure that is not a help request or a
    /// deliberate exit code becomes one line on stderr and exit status 2.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let exit as ExitCode {
            Self.exit(withError: exit)
        } catch {
            if exitCode(for: error) == .success { Self.exit(withError: error) }
            let message = Self.message(for: error).split(separator: "\n").first.map(String.init) ?? "\(error)"
            CLIOutput.fail(message)
        }
    }
}
