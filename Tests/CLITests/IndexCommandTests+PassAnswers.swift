import BuiltProducts
import Foundation

extension IndexCommandTests {
    /// The answers of `reactor-inspect COMMAND --no-index` (the pass's) one test has asked for,
    /// so that a command asked again on the same files is run once. `--no-index` neither reads
    /// nor writes an index, so its answer depends on the command and on the bytes of the files
    /// it names alone: an answer is given again only while every file the command names still
    /// has the bytes it had when it was run (a trace made stale, a budget rewritten: run again).
    final class PassAnswers: @unchecked Sendable {
        private struct Answer {
            let run: BuiltProducts.Run
            /// The bytes of each file the command named, when it ran.
            let files: [String: Data]
        }

        private let lock = NSLock()
        private var answers: [[String]: Answer] = [:]

        /// `command` run with `--no-index`, or its answer from before if its files are unchanged.
        func run(_ command: [String]) throws -> BuiltProducts.Run {
            let files = Self.files(named: command)
            if let kept = lock.withLock({ answers[command] }), kept.files == files { return kept.run }
            let run = try IndexCommandTests.run(command + ["--no-index"])
            lock.withLock { answers[command] = Answer(run: run, files: files) }
            return run
        }

        /// The bytes of every regular file an argument names.
        private static func files(named command: [String]) -> [String: Data] {
            var files: [String: Data] = [:]
            for argument in command where argument.hasPrefix("/") {
                var isFolder: ObjCBool = false
                if FileManager.default.fileExists(atPath: argument, isDirectory: &isFolder), !isFolder.boolValue {
                    files[argument] = FileManager.default.contents(atPath: argument)
                }
            }
            return files
        }
    }
}
