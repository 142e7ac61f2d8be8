import BuiltProducts
import Foundation
import ReactorTrace
import Testing

/// `trend` end to end over recordings laid out as CI keeps them: history/<commit>/<scenario>.trace.
@Suite struct TrendCommandTests {
    /// Records scenario `screen` at commits c1…c6 into a fresh folder: `list` reruns
    /// 10 times, and `extraAt` (a 1-based commit number) adds one rerun from then on.
    static func history(extraAt: Int?) throws -> URL {
        let root = try CICommand.temporaryDirectory().appendingPathComponent("trend-\(UUID().uuidString)")
        for number in 1...6 {
            let folder = root.appendingPathComponent("c\(number)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            // Labelled as CI labels them (REACTOR_TRACE_COMMIT, REACTOR_TRACE_SCENARIO): the
            // recording's metadata names its commit and scenario, as its folder and file do.
            let recorder = try TraceRecorder(path: folder.appendingPathComponent("screen.trace").path,
                                             options: TraceRecorder.Options(values: .described(maxLength: 100),
                                                                            metadata: ["commit": "c\(number)", "scenario": "screen"]))
            let store: UInt64 = 1, items: UInt64 = 2, list: UInt64 = 3
            recorder.nodeCreated(store, kind: .store, name: "Screen", parent: 0)
            recorder.nodeCreated(items, kind: .reactiveValue, name: "Screen.items", parent: store)
            recorder.nodeCreated(list, kind: .computation, name: "list", parent: 0)
            func run(first: Bool) {
                recorder.rerunBegan(computation: list, firstRun: first)
                recorder.depend(computation: list, dependency: items)
                recorder.rerunEnded(computation: list)
            }
            recorder.value(items, description: "0")
            run(first: true)
            let writes = 10 + (extraAt.map { number >= $0 ? 1 : 0 } ?? 0)
            for write in 1...writes {
                recorder.actionBegan(store: store, name: "add()", arguments: "")
                recorder.value(items, description: "\(write)")
                recorder.changed(dependency: items)
                recorder.invalidated(computation: list, cause: .dependency, source: items)
                run(first: false)
                recorder.actionEnded(store: store)
            }
            _ = recorder.stop()
        }
        return root
    }

    static func json(_ arguments: [String]) throws -> Any {
        let result = try BuiltProducts.run("reactor-inspect", arguments)
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
        return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
    }

    static func traces(_ root: URL) -> [String] {
        (1...6).map { root.appendingPathComponent("c\($0)/screen.trace").path }
    }

    @Test func theFourthRecordingsExtraRerunNamesItsCommit() throws {
        let root = try Self.history(extraAt: 4)
        defer { try? FileManager.default.removeItem(at: root) }
        // Given out of order: the recordings' own times order them.
        let traces = Self.traces(root).reversed()
        let json = try #require(try Self.json(["trend", "--json"] + traces) as? [String: Any])
        let changes = try #require(json["changes"] as? [[String: Any]])
        let counts = changes.filter { $0["metric"] as? String == "reruns" }
        #expect(counts.count == 1)
        #expect(counts.first?["commit"] as? String == "c4")
        #expect(counts.first?["previousCommit"] as? String == "c3")
        #expect(counts.first?["computation"] as? String == "list")
        #expect(counts.first?["from"] as? Int == 10)
        #expect(counts.first?["to"] as? Int == 11)
        let scenario = try #require((json["scenarios"] as? [[String: Any]])?.first)
        #expect(scenario["commits"] as? [String] == ["c1", "c2", "c3", "c4", "c5", "c6"])
        #expect(scenario["reruns"] as? [Int] == [10, 10, 10, 11, 11, 11])
        #expect(scenario["unneededReruns"] as? [Int] == [0, 0, 0, 0, 0, 0])

        let svg = root.appendingPathComponent("plots").path
        let markdown = try BuiltProducts.run("reactor-inspect", ["trend", "--svg", svg, "--fail-on-change"] + traces)
        #expect(markdown.status == 1)
        #expect(markdown.stdout.contains("**screen** changed first at `c4`"))
        #expect(markdown.stdout.contains("list: reruns 10 → 11 at c4 (after c3)"))
        let plot = try String(contentsOfFile: "\(svg)/screen.svg", encoding: .utf8)
        #expect(plot.hasPrefix("<svg"))
        #expect(plot.contains("list: reruns 10 → 11 at c4 (after c3)"))
    }

    @Test func sixIdenticalRecordingsReportNothing() throws {
        let root = try Self.history(extraAt: nil)
        defer { try? FileManager.default.removeItem(at: root) }
        let result = try BuiltProducts.run("reactor-inspect", ["trend", "--fail-on-change"] + Self.traces(root))
        #expect(result.status == 0, "\(result.stdout)")
        #expect(result.stdout.contains("No change"))
        let json = try #require(try Self.json(["trend", "--json"] + Self.traces(root)) as? [String: Any])
        #expect((json["changes"] as? [Any])?.isEmpty == true)
    }

    @Test func aKeptDatabaseGivesTheSameCountChange() throws {
        let root = try Self.history(extraAt: 4)
        defer { try? FileManager.default.removeItem(at: root) }
        let db = root.appendingPathComponent("history.db").path
        let imported = try BuiltProducts.run("reactor-inspect", ["sql", "--db", db] + Self.traces(root) + ["SELECT count(*) FROM traces"])
        #expect(imported.status == 0, "\(imported.stderr)")
        let json = try #require(try AgreementTests.json("trend", "--json", db) as? [String: Any])
        let counts = try #require(json["changes"] as? [[String: Any]]).filter { $0["metric"] as? String == "reruns" }
        #expect(counts.map { $0["commit"] as? String } == ["c4"])
    }

    @Test func badInputIsOneLine() throws {
        for arguments in [["trend"], ["trend", "/nonexistent/c1/x.trace"]] {
            let result = try BuiltProducts.run("reactor-inspect", arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stderrLines.count == 1, "\(arguments): \(result.stderr)")
        }
    }
}
