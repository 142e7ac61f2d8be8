import BuiltProducts
import Foundation

/// Runs of `reactor-inspect` on the sample traces, each distinct command line run once for each
/// trace content per test process (``TraceContentMemo``) and its output handed to every test that
/// asks for it again. A sample is recorded once and never written after (the index a command may
/// leave beside it changes how later commands answer, never what: IndexCommandTests asks every
/// command both ways), so the same arguments on it print the same output; running them again
/// would check nothing more.
enum AgreementRuns {
    private static let runs = TraceContentMemo<BuiltProducts.Run>()

    /// `reactor-inspect ARGUMENTS` (`COMMAND TRACE …`), run the first time it is asked for. Only for
    /// commands that write nothing but their output, on traces that do not change.
    static func run(_ arguments: [String]) throws -> BuiltProducts.Run {
        precondition(arguments.count > 1, "a command and its trace")
        return try runs.value(forTraceAt: arguments[1], arguments.joined(separator: "\u{0}")) {
            try BuiltProducts.run("reactor-inspect", arguments)
        }
    }
}
