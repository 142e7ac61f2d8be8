import BuiltProducts
import Foundation
import ReactorInspector
import Testing

/// The index beside a trace (TRACE.rindex) changes how much of the trace a
/// question reads, never its answer: every command that uses it prints the
/// same bytes, on stdout and stderr, with the same status, with and without it;
/// and a bad index is rebuilt with one note, never used.
@Suite struct IndexCommandTests {
    /// The samples, and a trace written from four threads with values.
    static let traces = ["counter", "todos", "profile", "stress", "stress-threads", "threads-values"]

    static let threadsWithValues = Result {
        try SampleTrace.record("stress", ["--computations", "40", "--writes", "600", "--threads", "4",
                                          "--trace-values", "64"], file: "threads-values")
    }

    /// A copy of the trace in a folder of its own, so that its index is this test's alone.
    static func copy(of sample: String, as name: String) throws -> String {
        let trace = sample == "threads-values" ? try threadsWithValues.get() : try SampleTrace.named(sample)
        let folder = SampleTrace.directory.appendingPathComponent("index-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("\(sample).trace").path
        try FileManager.default.copyItem(atPath: trace.path, toPath: path)
        return path
    }

    static func run(_ arguments: [String]) throws -> BuiltProducts.Run {
        try BuiltProducts.run("reactor-inspect", arguments)
    }

    /// Moments across the trace: before it, inside it (a tenth, a half, nine tenths), past its end; and actions.
    static func moments(of path: String) throws -> [String] {
        let (model, _) = try TraceFile.model(path: path)
        let times = [0, 1, 5, 9].map { model.firstTimestamp + model.durationNanoseconds / 10 * UInt64($0) }
            + [model.lastTimestamp + 1_000_000]
        return times.map { "\(Double($0) / 1000)us" } + ["action:1", "action:2", "action:7", "action:100000"]
    }

    static func commands(_ path: String, at moment: String) -> [[String]] {
        [["state", path, "--at", moment], ["state", path, "--at", moment, "--json"],
         ["graph", path, "--at", moment, "--format", "dot", "-o", "-"],
         ["replay", path, "--filter", "to:\(moment.hasPrefix("action:") ? "1ms" : moment)"]]
    }

    @Test(arguments: traces)
    func everyAnswerIsTheSameWithAndWithoutTheIndex(sample: String) throws {
        let path = try Self.copy(of: sample, as: "same")
        let built = try Self.run(["index", path])
        #expect(built.status == 0, "\(built.stderr)")
        #expect(built.stdout.contains("chunks of"))
        let indexPath = TraceIndex.path(forTrace: path)
        let indexBytes = try #require(FileManager.default.contents(atPath: indexPath))
        for moment in try Self.moments(of: path) {
            for command in Self.commands(path, at: moment) {
                let byPasses = try Self.run(command + ["--no-index"])
                let indexed = try Self.run(command)
                #expect(indexed.stdout == byPasses.stdout, "\(command)")
                #expect(indexed.stderr == byPasses.stderr, "\(command)")
                #expect(indexed.status == byPasses.status, "\(command)")
            }
        }
        // Every answer came from the index built above: none of them rebuilt it.
        #expect(FileManager.default.contents(atPath: indexPath) == indexBytes)
    }

    /// The first question about a moment leaves the index; --no-index neither reads nor writes one.
    @Test func theFirstQuestionLeavesTheIndexAndNoIndexLeavesNone() throws {
        let path = try Self.copy(of: "todos", as: "first")
        let indexPath = TraceIndex.path(forTrace: path)
        let plain = try Self.run(["state", path, "--at", "action:2", "--no-index"])
        #expect(plain.status == 0)
        #expect(!FileManager.default.fileExists(atPath: indexPath))
        let first = try Self.run(["state", path, "--at", "action:2"])
        #expect(first.stdout == plain.stdout)
        #expect(first.stderr.isEmpty)
        #expect(FileManager.default.fileExists(atPath: indexPath))
    }

    /// Index files that must not be used: each is reported in one note, the
    /// answer is the one by passes, and a good index replaces it.
    @Test(arguments: ["stale", "truncated", "foreign", "hostile", "empty", "other-trace"])
    func aBadIndexIsRebuiltWithOneNote(kind: String) throws {
        let path = try Self.copy(of: "threads-values", as: kind)
        let indexPath = TraceIndex.path(forTrace: path)
        #expect(try Self.run(["index", path]).status == 0)
        var bytes = try #require(FileManager.default.contents(atPath: indexPath))
        switch kind {
        case "stale":
            // The trace changes after the index was built: the index names the old one.
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data([0, 0, 0]))
            try handle.close()
        case "truncated": bytes = bytes.prefix(bytes.count / 2)
        case "foreign": bytes = Data("{\"not\": \"an index\"}".utf8)
        case "hostile":
            // Every chunk claims to start after the moment asked for, under a checksum that fits.
            bytes = try Self.forged(bytes, path: path)
        case "empty": bytes = Data()
        default:
            let other = try Self.copy(of: "stress", as: "other")
            #expect(try Self.run(["index", other]).status == 0)
            bytes = try #require(FileManager.default.contents(atPath: TraceIndex.path(forTrace: other)))
        }
        if kind != "stale" { try bytes.write(to: URL(fileURLWithPath: indexPath)) }
        let moment = try Self.moments(of: path)[2]
        let byPasses = try Self.run(["state", path, "--at", moment, "--no-index"])
        let answered = try Self.run(["state", path, "--at", moment])
        #expect(answered.stdout == byPasses.stdout)
        #expect(answered.status == byPasses.status)
        let notes = answered.stderrLines.filter { $0.contains(".rindex") }
        #expect(notes.count == 1, "\(answered.stderr)")
        #expect(notes.first?.hasPrefix("reactor-inspect: note: ") == true)
        // Rebuilt: the next question uses it without a note.
        let again = try Self.run(["state", path, "--at", moment])
        #expect(again.stdout == byPasses.stdout)
        #expect(!again.stderr.contains(".rindex"), "\(again.stderr)")
    }

    /// An index whose table is rewritten so that every chunk seems later than
    /// any moment, its checksum recomputed: structurally valid, and a lie.
    static func forged(_ bytes: Data, path: String) throws -> Data {
        let index = try TraceIndex.load(forTrace: path)
        var forged = try #require(index)
        forged.batches = forged.batches.map { batch in
            var batch = batch
            batch.firstTime = forged.latestTimestamp
            batch.lastTime = forged.latestTimestamp
            return batch
        }
        return Data(forged.encoded())
    }

    /// An index that cannot be written (its path is a folder): the answer is
    /// the one by passes, with one note, every time.
    @Test func anIndexThatCannotBeWrittenLeavesAnswersByPasses() throws {
        let path = try Self.copy(of: "todos", as: "unwritable")
        try FileManager.default.createDirectory(atPath: TraceIndex.path(forTrace: path),
                                                withIntermediateDirectories: false)
        let byPasses = try Self.run(["state", path, "--at", "action:3", "--no-index"])
        for _ in 0..<2 {
            let answered = try Self.run(["state", path, "--at", "action:3"])
            #expect(answered.stdout == byPasses.stdout)
            #expect(answered.status == 0)
            #expect(answered.stderrLines.count == 1, "\(answered.stderr)")
            #expect(answered.stderr.hasPrefix("reactor-inspect: note: "))
        }
    }

    /// `index` on what cannot be indexed: one line, status 2.
    @Test func indexOfABadTraceIsOneLine() throws {
        let missing = SampleTrace.directory.appendingPathComponent("no-such-\(UUID().uuidString).trace").path
        let result = try Self.run(["index", missing])
        #expect(result.status == 2)
        #expect(result.stderrLines.count == 1)
        #expect(!FileManager.default.fileExists(atPath: TraceIndex.path(forTrace: missing)))
    }
}
