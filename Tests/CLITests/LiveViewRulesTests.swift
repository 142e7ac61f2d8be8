import BuiltProducts
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The live views follow the finished file's rules (docs/TRACE_FORMAT.md 7a, docs/METRICS.md
/// "name" and "old → new"): on a recording still going on, `serve`'s events are `replay`'s
/// lines — old → new in time order across threads, every node by the name the trace gives it.
@Suite struct LiveViewRulesTests {
    /// Returns once the file at `path` has kept its size for a second (the recorder has shipped
    /// what the app wrote and is idle, still recording).
    static func waitUntilStill(_ path: String, recordedBy process: Process) throws -> Int {
        let deadline = ContinuousClock.now + .seconds(300)
        var size = RecordingProgress.fileSize(path), still = 0
        while still < 4 {
            try #require(process.isRunning, "the recording process exited")
            try #require(ContinuousClock.now < deadline, "\(path) kept growing")
            usleep(250_000)
            let now = RecordingProgress.fileSize(path)
            still = now == size && now > 0 ? still + 1 : 0
            size = now
        }
        return size
    }

    static func canonical(_ object: [String: Any]) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    }

    static func lines(_ run: BuiltProducts.Run) -> [String] {
        run.stdout.split(separator: "\n").map(String.init)
    }

    /// A 4-thread recording with values, held open after its writes (no end block): `serve`'s
    /// `/api/replay` gives `replay`'s lines, JSON and text, where it gave the lines as read
    /// (old → new in file order, `property#N` before a name).
    @Test func serveEventsAreReplaysLinesWhileRecording() throws {
        let path = SampleTrace.directory.appendingPathComponent("live-rules-\(UUID().uuidString).trace").path
        defer { unlink(path) }
        let (stress, output) = try BuiltProducts.launch("stress", ["--computations", "60", "--writes", "400", "--threads", "4",
                                                                   "--trace-values", "64", "--hold", "--trace", path])
        defer { if stress.isRunning { kill(stress.processIdentifier, SIGKILL); stress.waitUntilExit() } }
        #expect(BuiltProducts.readLine(output)?.contains("\"writes\"") == true)
        let server = try InspectorClient(trace: path)
        let size = try Self.waitUntilStill(path, recordedBy: stress)

        for (query, arguments) in [("limit=5000", ["--json"]), ("limit=5000&filter=kind:changed", ["--json", "--filter", "kind:changed"])] {
            let answer = try server.get("/api/replay?" + query).json()
            let served = try #require(answer["lines"] as? [[String: Any]])
            let replay = try BuiltProducts.run("reactor-inspect", ["replay", path] + arguments)
            let expected = try Self.lines(replay).suffix(5000).map {
                try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
            }
            // Null when the answer came from the live index without reading back to the start.
            #expect(answer["matched"] is NSNull || answer["matched"] as? Int == Self.lines(replay).count, "\(query)")
            #expect(served.count == expected.count)
            let differing = try zip(served, expected).filter { try Self.canonical($0) != Self.canonical($1) }
            #expect(differing.isEmpty, "\(query): \(differing.count) lines differ, first \(differing.first.map { "\($0)" } ?? "")")
        }
        let text = try #require(try server.get("/api/replay?format=text&limit=5000").json()["lines"] as? [String])
        #expect(text == Array(Self.lines(try BuiltProducts.run("reactor-inspect", ["replay", path])).suffix(5000)))
        // Nothing shown under a provisional name once the trace names it.
        #expect(!text.contains { $0.contains("property#") })
        #expect(RecordingProgress.fileSize(path) == size, "the recording wrote more meanwhile")
        #expect(stress.isRunning)
    }
}
