import BuiltProducts
import Foundation
import ReactorTrace
import Testing

/// What the CLI makes of the trace's edges: bytes after the end block, skipped
/// events in the totals, one name for unnamed nodes, `why --limit 0`.
@Suite struct TraceTruthTests {
    static func copy(_ path: String, appending extra: [UInt8], name: String) throws -> String {
        let target = SampleTrace.directory.appendingPathComponent(name).path
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        bytes += extra
        try Data(bytes).write(to: URL(fileURLWithPath: target))
        return target
    }

    @Test func bytesAfterTheEndBlockWarnOnceAndExitZero() throws {
        let trace = try SampleTrace.counter.get()
        let padded = try Self.copy(trace.path, appending: Array("trailing junk".utf8), name: "counter-trailing.rtrace")
        let clean = try BuiltProducts.inspect("summary", trace.path, "--json")
        for command in [["summary", "--json"], ["hot"], ["replay"], ["why", "label", "--limit", "1"]] {
            let result = try BuiltProducts.run("reactor-inspect", [command[0], padded] + command.dropFirst())
            #expect(result.status == 0, "\(command): \(result.stderr)")
            #expect(result.stderrLines.count == 1, "\(command)")
            #expect(result.stderr.contains("bytes after the end block"))
        }
        let summary = try BuiltProducts.inspect("summary", padded, "--json")
        #expect(summary.stdout == clean.stdout)
    }

    @Test func summaryEventsAreTheEndBlocksCount() throws {
        let trace = try SampleTrace.todos.get()
        let reader = try TraceReader(path: trace.path)
        try reader.skipToEnd()
        let end = try #require(reader.end)
        let result = try BuiltProducts.inspect("summary", trace.path, "--json")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["events"] as? Int == Int(end.events))
    }

    @Test func everyHelpPointsToTheDefinitions() throws {
        for command in ["summary", "hot", "why", "replay", "graph", "check", "diff", "export", "report",
                        "top", "state", "history"] {
            let help = try BuiltProducts.inspect(command, "--help")
            #expect(help.stdout.contains("docs/METRICS.md"), "\(command)")
        }
        #expect(try BuiltProducts.inspect("--help").stdout.contains("docs/METRICS.md"))
    }

    @Test func whyLimitZeroListsNoRun() throws {
        let trace = try SampleTrace.counter.get()
        let result = try BuiltProducts.inspect("why", trace.path, "label", "--limit", "0")
        #expect(result.status == 0)
        #expect(!result.stdout.contains("#1 "))
        #expect(result.stdout.contains("101 more (use --limit N to list more)"))
        let json = try BuiltProducts.inspect("why", trace.path, "label", "--limit", "0", "--json")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect((object["entries"] as? [Any])?.isEmpty == true)
    }
}
