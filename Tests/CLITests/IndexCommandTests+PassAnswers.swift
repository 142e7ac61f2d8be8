import BuiltProducts
import Foundation

extension IndexCommandTests {
    /// The answers of `reactor-inspect COMMAND --no-index` (the pass's) asked for so far, so that
    /// a command asked again about the same bytes is run once. `--no-index` neither reads nor
    /// writes an index, so its answer depends on the command and on the bytes of the files it
    /// names alone: an answer is given again only for the same command about files with the
    /// same bytes (a trace made stale, a budget rewritten: run again).
    ///
    /// ``shared`` also gives an answer about a copy of those files at other paths (each test's
    /// copy of a sample is such a copy): the answer printed about the first paths, each of them
    /// replaced by the copy's where it printed it. A pass whose answer depended on where its
    /// files are in any other way would then differ from the answer with the index, and fail
    /// the test; it could not make a wrong indexed answer pass.
    final class PassAnswers: @unchecked Sendable {
        /// One store for every test of the suite.
        static let shared = PassAnswers()

        private struct Answer {
            /// The bytes of each file the command named, in the order it named them.
            let files: [Data]
            /// What it printed, each file's path replaced by its ``placeholder(_:)``.
            let run: BuiltProducts.Run
        }

        private let lock = NSLock()
        /// By command, each file it names replaced by its ``placeholder(_:)``.
        private var answers: [[String]: [Answer]] = [:]

        /// `command` run with `--no-index`, or its answer from before about the same bytes.
        func run(_ command: [String]) throws -> BuiltProducts.Run {
            var paths: [String] = [], files: [Data] = [], key: [String] = []
            for argument in command {
                if argument.hasPrefix("/"), let bytes = Self.regularFile(argument) {
                    if let position = paths.firstIndex(of: argument) {
                        key.append(Self.placeholder(position))
                    } else {
                        key.append(Self.placeholder(paths.count))
                        paths.append(argument)
                        files.append(bytes)
                    }
                } else {
                    key.append(argument)
                }
            }
            if let kept = lock.withLock({ answers[key]?.first { $0.files == files } }) {
                return Self.replacing(kept.run) { text in
                    paths.indices.reduce(text) { $0.replacingOccurrences(of: Self.placeholder($1), with: paths[$1]) }
                }
            }
            let run = try IndexCommandTests.run(command + ["--no-index"])
            // Longer paths first, so that no path is replaced inside a longer one that holds it.
            let longestFirst = paths.indices.sorted { paths[$0].count > paths[$1].count }
            let kept = Self.replacing(run) { text in
                longestFirst.reduce(text) { $0.replacingOccurrences(of: paths[$1], with: Self.placeholder($1)) }
            }
            lock.withLock { answers[key, default: []].append(Answer(files: files, run: kept)) }
            return run
        }

        /// Stands for the `position`-th file a command names, in its key and its kept answer.
        private static func placeholder(_ position: Int) -> String { "\u{1}file \(position)\u{1}" }

        private static func replacing(_ run: BuiltProducts.Run, _ change: (String) -> String) -> BuiltProducts.Run {
            var changed = run
            changed.stdout = change(run.stdout)
            changed.stderr = change(run.stderr)
            return changed
        }

        /// The bytes of the regular file at `path`; nil for anything else.
        private static func regularFile(_ path: String) -> Data? {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue else { return nil }
            return FileManager.default.contents(atPath: path)
        }
    }
}
