import BuiltProducts
import Foundation
import ReactorTrace
import Testing

/// The rules every view follows (docs/TRACE_FORMAT.md section 7, docs/METRICS.md), on the
/// samples recorded with values and without, on one thread and four: times never go back,
/// "events" is one number, names are matched ignoring case, `--at end` is a moment, and a
/// list cut short says how many it left out.
@Suite struct ViewRulesTests {
    static func json(_ arguments: String...) throws -> Any {
        let result = try BuiltProducts.run("reactor-inspect", arguments)
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
        return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
    }

    /// Within a thread no event is earlier than the one before it: value and site events at
    /// the start of a fresh buffer included (they read as 0 before).
    @Test(arguments: ["todos", "stress-values", "stress-threads-values"])
    func replayTimesNeverGoBackOnAThread(sample: String) throws {
        let trace = try SampleTrace.named(sample)
        let result = try BuiltProducts.run("reactor-inspect", ["replay", trace.path, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        var latest: [Int: Int] = [:]
        var backwards = 0, values = 0
        for line in result.stdout.split(separator: "\n") {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let thread = try #require(object["thread"] as? Int), time = try #require(object["timeNanoseconds"] as? Int)
            if object["kind"] as? String == "value" { values += 1 }
            if time < latest[thread] ?? 0 { backwards += 1 }
            latest[thread] = max(latest[thread] ?? 0, time)
        }
        #expect(values > 0)
        #expect(backwards == 0)
    }

    /// `summary`, `top --json` and the end block count the same events (clock and skipped ones included).
    @Test(arguments: SampleTrace.agreementSamples)
    func everyViewCountsTheSameEvents(sample: String) throws {
        let trace = try SampleTrace.named(sample)
        let reader = try TraceReader(path: trace.path)
        try reader.skipToEnd()
        let events = try #require(reader.end.map { Int($0.events) })
        let summary = try #require(try Self.json("summary", trace.path, "--json") as? [String: Any])
        let top = try #require(try Self.json("top", trace.path, "--json") as? [String: Any])
        #expect(summary["events"] as? Int == events)
        #expect(top["events"] as? Int == events)
    }

    @Test func stateFiltersIgnoreCaseAndEndIsAMoment() throws {
        let trace = try SampleTrace.todos.get()
        let upper = try #require(try Self.json("state", trace.path, "--at", "end", "--filter", "TodoStore.", "--json")
            as? [[String: Any]])
        let lower = try #require(try Self.json("state", trace.path, "--at", "end", "--filter", "todostore.", "--json")
            as? [[String: Any]])
        #expect(!upper.isEmpty)
        #expect(upper.compactMap { $0["name"] as? String } == lower.compactMap { $0["name"] as? String })
        // The end's values are each node's last: the filter's history ends at "active".
        let history = try #require(try Self.json("history", trace.path, "TodoStore.filter", "--json") as? [[String: Any]])
        let filter = try #require(upper.first { $0["name"] as? String == "TodoStore.filter" })
        #expect(filter["value"] as? String == history.last?["value"] as? String)
        let text = try BuiltProducts.inspect("state", trace.path, "--at", "end", "--filter", "TODOSTORE.FILTER")
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("state of \(trace.path) at end ("))
    }

    @Test func aSummaryCutShortSaysHowManyMore() throws {
        let trace = try SampleTrace.todos.get()
        let summary = try #require(try Self.json("summary", trace.path, "--json") as? [String: Any])
        let actions = try #require(summary["actionCount"] as? Int)
        #expect(actions > 1)
        let cut = try BuiltProducts.inspect("summary", trace.path, "--top", "1")
        #expect(cut.status == 0)
        #expect(cut.stdout.contains("… \(actions - 1) more (--top N)"))
        let whole = try BuiltProducts.inspect("summary", trace.path, "--top", "100")
        #expect(!whole.stdout.contains("more (--top N)"))
    }
}
