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
        #expect(result.status == 0 || (result.status == 2 && result.stderr.contains("has no end block")),
                "\(arguments): \(result.stderr)")
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

    /// Every write's `changed` carries old → new, and its old is the node's previous value in
    /// time order (by timestamp, ties in file order), whichever thread wrote it.
    @Test(arguments: ["todos", "stress-values", "stress-threads-values"])
    func replaysOldToNewFollowsTimeOrder(sample: String) throws {
        let trace = try SampleTrace.named(sample)
        let result = try BuiltProducts.run("reactor-inspect", ["replay", trace.path, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        struct Value { var name: String; var time: Int; var index: Int; var value: String }
        var values: [Value] = []
        var lastValueOnThread: [Int: Int] = [:]   // thread → index in `values` of its latest value event
        var writes: [(value: Int, previous: String?, new: String?)] = []
        // Lines name nodes, not ids: only names that one created node has are checked (stress has
        // many `Source.value`s).
        var created: [String: Int] = [:]
        var index = 0
        for line in result.stdout.split(separator: "\n") {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let thread = try #require(object["thread"] as? Int), name = object["name"] as? String ?? ""
            defer { index += 1 }
            switch object["kind"] as? String {
            case "created":
                created[name, default: 0] += 1
            case "value":
                values.append(Value(name: name, time: try #require(object["timeNanoseconds"] as? Int), index: index,
                                    value: try #require(object["value"] as? String)))
                lastValueOnThread[thread] = values.count - 1
            case "changed":
                // A write: its value event is the thread's latest one, of the same node.
                if let last = lastValueOnThread[thread], values[last].name == name {
                    writes.append((last, object["previousValue"] as? String, object["value"] as? String))
                }
                lastValueOnThread[thread] = nil
            default:
                break
            }
        }
        writes.removeAll { created[values[$0.value].name] != 1 }
        #expect(!writes.isEmpty)
        let ordered = values.indices.sorted { (values[$0].name, values[$0].time, values[$0].index)
            < (values[$1].name, values[$1].time, values[$1].index) }
        var rank: [Int: Int] = [:]
        for (position, value) in ordered.enumerated() { rank[value] = position }
        var wrong = 0
        for write in writes {
            let position = rank[write.value]!
            let before = position > 0 && values[ordered[position - 1]].name == values[write.value].name
                ? values[ordered[position - 1]].value : nil
            if write.new != values[write.value].value || write.previous != before { wrong += 1 }
        }
        #expect(wrong == 0, "\(wrong) of \(writes.count) writes")
    }

    /// A run the trace began and did not end (a killed recording) lasts until its thread's last
    /// event in `hot` as in the Chrome export, where it was 0 ns in one and drawn to the end in the other.
    @Test func anUnfinishedRunHasOneDurationEverywhere() throws {
        /// The unfinished runs `path` has (0: none, nothing checked), each checked.
        func check(_ path: String, label: String) throws -> Int {
            let summaryRun = try BuiltProducts.run("reactor-inspect", ["summary", path, "--json"])
            let summary = try #require(try JSONSerialization.jsonObject(with: Data(summaryRun.stdout.utf8)) as? [String: Any])
            let unfinished = summary["unfinishedRuns"] as? Int ?? 0
            guard unfinished > 0 else { return 0 }
            let hotRun = try BuiltProducts.run("reactor-inspect", ["hot", path, "--json", "--top", "1000000"])
            let hot = try #require(try JSONSerialization.jsonObject(with: Data(hotRun.stdout.utf8)) as? [[String: Any]])
            var hotTotals: [String: Int] = [:]
            for entry in hot { hotTotals[entry["name"] as? String ?? "", default: 0] += entry["totalNanoseconds"] as? Int ?? 0 }
            let exported = path + ".json"
            defer { unlink(exported) }
            _ = try BuiltProducts.run("reactor-inspect", ["export", path, "--format", "chrome", "-o", exported])
            let document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: exported)))
                as? [String: Any])
            var open: [Int: [(String?, Int)]] = [:]
            var sliceTotals: [String: Int] = [:]
            for event in document["traceEvents"] as? [[String: Any]] ?? [] {
                guard let phase = event["ph"] as? String, phase == "B" || phase == "E",
                      let tid = event["tid"] as? Int, let ts = event["ts"] as? Double else { continue }
                let nanoseconds = Int((ts * 1000).rounded())
                if phase == "B" {
                    let isRun = (event["args"] as? [String: Any])?["run"] != nil
                    open[tid, default: []].append((isRun ? event["name"] as? String : nil, nanoseconds))
                } else if let (name, begin) = open[tid]?.popLast(), let name {
                    sliceTotals[name, default: 0] += nanoseconds - begin
                }
            }
            for (name, total) in hotTotals where total > 0 {
                #expect(sliceTotals[name] == total, "\(label): \(name)")
            }
            return unfinished
        }
        // A killed recording (recorded until a kill leaves a run open), and cuts of a whole one: whether a
        // cut leaves a run open depends on where the freshly recorded sample's chunks fall.
        var unfinishedSeen = try check(try SampleTrace.named("stress-threads-values-killed").path, label: "killed")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: try SampleTrace.named("stress-threads").path))
        for fraction in [0.35, 0.5, 0.65, 0.8] {
            let cut = FileManager.default.temporaryDirectory.appendingPathComponent("unfinished-\(fraction)-\(getpid()).trace").path
            try bytes.prefix(Int(Double(bytes.count) * fraction)).write(to: URL(fileURLWithPath: cut))
            defer { unlink(cut) }
            unfinishedSeen += try check(cut, label: "\(fraction)")
        }
        #expect(unfinishedSeen > 0, "no run left unfinished")
    }

    /// A node's name is its final name from its first line: an `@Reactive` named on first
    /// access never shows as `property#N` before its `named` line.
    @Test(arguments: ["todos", "stress-threads-values"])
    func replayShowsEveryNodeByItsFinalName(sample: String) throws {
        let trace = try SampleTrace.named(sample)
        let result = try BuiltProducts.run("reactor-inspect", ["replay", trace.path])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        // `named  #4 is TodoStore.filter`: the ids the trace names.
        let named = Set(lines.compactMap { line -> String? in
            guard let range = line.range(of: #"#[0-9]+ is "#, options: .regularExpression) else { return nil }
            return String(line[range].dropFirst().dropLast(4))
        })
        #expect(!named.isEmpty)
        let unnamedShown = lines.filter { line in
            named.contains { id in line.range(of: "[a-z]#\(id)\\b", options: .regularExpression) != nil }
        }
        #expect(unnamedShown.isEmpty, "\(unnamedShown.prefix(3))")
    }

    /// `summary`, `top --json` and the end block count the same events (clock and skipped ones included).
    @Test(arguments: SampleTrace.agreementSamples)
    func everyViewCountsTheSameEvents(sample: String) throws {
        let trace = try SampleTrace.named(sample)
        let events = try AgreementTests.events(of: try TraceReader(path: trace.path))
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
