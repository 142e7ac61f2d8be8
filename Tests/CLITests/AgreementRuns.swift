import BuiltProducts
import Foundation

/// Runs of `reactor-inspect` on the sample traces, each distinct command line run once per test
/// process and its output handed to every test that asks for it again. A sample is recorded
/// once and never written after (the index a command may leave beside it changes how later
/// commands answer, never what: IndexCommandTests asks every command both ways), so the same
/// arguments on it print the same output; running them again would check nothing more.
enum AgreementRuns {
    /// One command line's run, made by the first test that asks for it while the others wait.
    private final class Entry: @unchecked Sendable {
        let lock = NSLock()
        var result: Result<BuiltProducts.Run, any Error>?
    }

    /// Every command line asked for so far.
    private final class Table: @unchecked Sendable {
        let lock = NSLock()
        var entries: [[String]: Entry] = [:]

        func entry(_ arguments: [String]) -> Entry {
            lock.withLock {
                if let entry = entries[arguments] { return entry }
                let entry = Entry()
                entries[arguments] = entry
                return entry
            }
        }
    }

    private static let table = Table()

    /// `reactor-inspect ARGUMENTS`, run the first time it is asked for. Only for commands that
    /// write nothing but their output (`-o -`), on traces that do not change.
    static func run(_ arguments: [String]) throws -> BuiltProducts.Run {
        let entry = table.entry(arguments)
        return try entry.lock.withLock {
            if let result = entry.result { return try result.get() }
            let result = Result { try BuiltProducts.run("reactor-inspect", arguments) }
            entry.result = result
            return try result.get()
        }
    }
}
