import BuiltProducts
import Foundation
import ReactorTrace
import Testing

/// Every view of a trace gives the same figures for what they share: runs,
/// reruns, totals and maxima per computation (docs/METRICS.md), through the
/// built binary's JSON outputs and the Chrome and OTLP exports.
@Suite struct AgreementTests {
    struct Key: Hashable, CustomStringConvertible {
        var name: String
        var kind: String
        var description: String { "\(kind) \(name)" }
    }

    struct Figures: Equatable {
        var runs: Int
        var reruns: Int
        var totalNanoseconds: Int
        var maxNanoseconds: Int
    }

    static func json(_ arguments: String...) throws -> Any {
        let result = try BuiltProducts.run("reactor-inspect", arguments)
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
        return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
    }

    static func records(_ array: Any?) throws -> [Key: Figures] {
        let entries = try #require(array as? [[String: Any]])
        var result: [Key: Figures] = [:]
        for entry in entries {
            let key = Key(name: try #require(entry["name"] as? String), kind: try #require(entry["kind"] as? String))
            for field in ["runs", "reruns", "totalNanoseconds", "selfNanoseconds", "maxNanoseconds", "p50Nanoseconds",
                          "p99Nanoseconds"] {
                #expect(entry[field] is Int, "\(key): \(field)")
            }
            result[key] = Figures(runs: entry["runs"] as? Int ?? -1, reruns: entry["reruns"] as? Int ?? -1,
                                  totalNanoseconds: entry["totalNanoseconds"] as? Int ?? -1,
                                  maxNanoseconds: entry["maxNanoseconds"] as? Int ?? -1)
        }
        return result
    }

    @Test(arguments: SampleTrace.agreementSamples)
    func everyViewGivesTheSameFigures(sample: String) throws {
        let trace = try SampleTrace.named(sample)
        let hot = try Self.records(try Self.json("hot", trace.path, "--json", "--top", "1000000"))
        #expect(!hot.isEmpty)

        // report --format json: the same records, every one of them.
        let report = try #require(try Self.json("report", trace.path, "--format", "json", "-o", "-") as? [String: Any])
        let reportRecords = try Self.records(report["computations"])
        #expect(reportRecords == hot)

        // check --json: the records the budget was measured on.
        let budget = FileManager.default.temporaryDirectory.appendingPathComponent("agreement-budget-\(sample).json").path
        try Data("{}".utf8).write(to: URL(fileURLWithPath: budget))
        let check = try #require(try Self.json("check", trace.path, "--budget", budget, "--json") as? [String: Any])
        #expect(check["passed"] as? Bool == true)
        #expect(try Self.records(check["computations"]) == hot)

        // summary --json: the sums, and every event the end block counts.
        let summary = try #require(try Self.json("summary", trace.path, "--json") as? [String: Any])
        #expect(summary["runs"] as? Int == hot.values.reduce(0) { $0 + $1.runs })
        #expect(summary["reruns"] as? Int == hot.values.reduce(0) { $0 + $1.reruns })
        #expect(report["runs"] as? Int == hot.values.reduce(0) { $0 + $1.runs })
        #expect(report["reruns"] as? Int == hot.values.reduce(0) { $0 + $1.reruns })
        let reader = try TraceReader(path: trace.path)
        try reader.skipToEnd()
        #expect(summary["events"] as? Int == reader.end.map { Int($0.events) })
        #expect(report["events"] as? Int == reader.end.map { Int($0.events) })

        // diff of the trace with itself: each side's reruns and total.
        let diffDocument = try #require(try Self.json("diff", trace.path, trace.path, "--json") as? [String: Any])
        let diff = try #require(diffDocument["diff"] as? [String: Any])
        let diffEntries = try #require(diff["computations"] as? [[String: Any]])
        var diffed = 0
        for entry in diffEntries {
            let key = Key(name: try #require(entry["name"] as? String), kind: try #require(entry["kind"] as? String))
            let hotNames = hot.keys.filter { $0.name == key.name }
            guard hotNames.count == 1, let figures = hot[key] else { continue }  // diff matches by name alone
            let base = try #require(entry["base"] as? [String: Any])
            #expect(base["reruns"] as? Int == figures.reruns, "\(key)")
            #expect(base["totalNanoseconds"] as? Int == figures.totalNanoseconds, "\(key)")
            #expect(entry["status"] as? String == "unchanged", "\(key)")
            diffed += 1
        }
        #expect(diffed > 0)

        // why NAME --json: runs and reruns, for names that are one computation.
        let unique = hot.keys.filter { key in hot.keys.filter { $0.name == key.name }.count == 1 }
        for key in unique.sorted(by: { $0.name < $1.name }).prefix(4) {
            let why = try #require(try Self.json("why", trace.path, key.name, "--json", "--limit", "0") as? [String: Any])
            #expect(why["runs"] as? Int == hot[key]?.runs, "\(key)")
            #expect(why["reruns"] as? Int == hot[key]?.reruns, "\(key)")
        }

        // The Chrome export: one slice per run, as long as the run.
        let exported = FileManager.default.temporaryDirectory.appendingPathComponent("agreement-\(sample).json").path
        let export = try BuiltProducts.run("reactor-inspect", ["export", trace.path, "--format", "chrome", "-o", exported])
        #expect(export.status == 0, "\(export.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: exported)))
            as? [String: Any])
        let events = try #require(document["traceEvents"] as? [[String: Any]])
        var open: [Int: [(Key?, Int)]] = [:]
        var slices: [Key: Figures] = [:]
        for event in events {
            guard let phase = event["ph"] as? String, phase == "B" || phase == "E",
                  let tid = event["tid"] as? Int, let ts = event["ts"] as? Double else { continue }
            let nanoseconds = Int((ts * 1000).rounded())
            if phase == "B" {
                let args = event["args"] as? [String: String] ?? [:]
                let key = args["run"] == nil ? nil : Key(name: event["name"] as? String ?? "", kind: args["kind"] ?? "")
                open[tid, default: []].append((key, nanoseconds))
            } else if let (key, begin) = open[tid]?.popLast(), let key {
                let duration = nanoseconds - begin
                var figures = slices[key] ?? Figures(runs: 0, reruns: 0, totalNanoseconds: 0, maxNanoseconds: 0)
                figures.runs += 1
                figures.totalNanoseconds += duration
                figures.maxNanoseconds = max(figures.maxNanoseconds, duration)
                slices[key] = figures
            }
        }
        // One named track per recording thread.
        let named = events.filter { $0["ph"] as? String == "M" && $0["name"] as? String == "thread_name" }
        #expect(Set(named.compactMap { $0["tid"] as? Int }).count == reader.threadCount)
        #expect(named.allSatisfy { (($0["args"] as? [String: Any])?["name"] as? String)?.hasPrefix("thread ") == true })
        for (key, figures) in hot where figures.runs > 0 {
            let exportedFigures = try #require(slices[key], "\(key) has no slices")
            #expect(exportedFigures.runs == figures.runs, "\(key)")
            #expect(exportedFigures.totalNanoseconds == figures.totalNanoseconds, "\(key)")
            #expect(exportedFigures.maxNanoseconds == figures.maxNanoseconds, "\(key)")
        }

        // The OTLP export: one run span per run, as long as the run.
        let spansPath = FileManager.default.temporaryDirectory.appendingPathComponent("agreement-\(sample).otlp.json").path
        let otlp = try BuiltProducts.run("reactor-inspect", ["export", trace.path, "--format", "otlp", "-o", spansPath])
        #expect(otlp.status == 0, "\(otlp.stderr)")
        let request = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: spansPath)))
            as? [String: Any])
        let resource = try #require((request["resourceSpans"] as? [[String: Any]])?.first)
        let spans = try #require(((resource["scopeSpans"] as? [[String: Any]])?.first)?["spans"] as? [[String: Any]])
        var spanFigures: [Key: Figures] = [:]
        for span in spans {
            var attributes: [String: String] = [:]
            for attribute in span["attributes"] as? [[String: Any]] ?? [] {
                if let key = attribute["key"] as? String, let value = (attribute["value"] as? [String: Any])?["stringValue"] as? String {
                    attributes[key] = value
                }
            }
            if attributes["reactor.span.kind"] == "recording" {
                // The recording's event count is the trace's: every event, as summary counts them.
                let events = (span["attributes"] as? [[String: Any]] ?? []).first { $0["key"] as? String == "reactor.events" }
                let count = ((events?["value"] as? [String: Any])?["intValue"]).flatMap { "\($0)" }
                #expect(count == reader.end.map { "\($0.events)" }, "\(sample): reactor.events")
            }
            guard attributes["reactor.span.kind"] == "run" else { continue }
            let key = Key(name: span["name"] as? String ?? "", kind: attributes["reactor.node.kind"] ?? "")
            let start = Int(span["startTimeUnixNano"] as? String ?? "") ?? 0
            let duration = (Int(span["endTimeUnixNano"] as? String ?? "") ?? 0) - start
            var figures = spanFigures[key] ?? Figures(runs: 0, reruns: 0, totalNanoseconds: 0, maxNanoseconds: 0)
            figures.runs += 1
            figures.totalNanoseconds += duration
            figures.maxNanoseconds = max(figures.maxNanoseconds, duration)
            spanFigures[key] = figures
        }
        #expect(Set(spanFigures.keys) == Set(hot.filter { $0.value.runs > 0 }.keys))
        for (key, figures) in hot where figures.runs > 0 {
            let exportedFigures = try #require(spanFigures[key], "\(key) has no spans")
            #expect(exportedFigures.runs == figures.runs, "\(key)")
            #expect(exportedFigures.totalNanoseconds == figures.totalNanoseconds, "\(key)")
            #expect(exportedFigures.maxNanoseconds == figures.maxNanoseconds, "\(key)")
        }
    }

    /// Hot's figures summed by name (replay lines name nodes, not their kinds).
    static func byName(_ records: [Key: Figures]) -> [String: Figures] {
        var result: [String: Figures] = [:]
        for (key, figures) in records where figures.runs > 0 {
            var sum = result[key.name] ?? Figures(runs: 0, reruns: 0, totalNanoseconds: 0, maxNanoseconds: 0)
            sum.runs += figures.runs
            sum.reruns += figures.reruns
            sum.totalNanoseconds += figures.totalNanoseconds
            sum.maxNanoseconds = max(sum.maxNanoseconds, figures.maxNanoseconds)
            result[key.name] = sum
        }
        return result
    }

    @Test(arguments: SampleTrace.agreementSamples)
    func replayShowsTheRunsHotCounts(sample: String) throws {
        let trace = try SampleTrace.named(sample)
        let hot = Self.byName(try Self.records(try Self.json("hot", trace.path, "--json", "--top", "1000000")))
        let result = try BuiltProducts.run("reactor-inspect", ["replay", trace.path, "--json", "--filter", "rerun"])
        #expect(result.status == 0, "\(result.stderr)")
        var replayed: [String: Figures] = [:]
        for line in result.stdout.split(separator: "\n") {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let name = try #require(object["name"] as? String)
            var figures = replayed[name] ?? Figures(runs: 0, reruns: 0, totalNanoseconds: 0, maxNanoseconds: 0)
            if object["kind"] as? String == "rerun-begin" {
                figures.runs += 1
                if object["firstRun"] as? Bool == false { figures.reruns += 1 }
            } else if let duration = object["durationNanoseconds"] as? Int {
                figures.totalNanoseconds += duration
                figures.maxNanoseconds = max(figures.maxNanoseconds, duration)
            }
            replayed[name] = figures
        }
        #expect(!replayed.isEmpty)
        #expect(replayed == hot)
    }

    @Test(arguments: SampleTrace.agreementSamples)
    func replayTimesNeverGoBackWithinAThread(sample: String) throws {
        let trace = try SampleTrace.named(sample)
        let result = try BuiltProducts.run("reactor-inspect", ["replay", trace.path, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let reader = try TraceReader(path: trace.path)
        let count = try reader.skipToEnd()
        var latest: [Int: Int] = [:]
        var lines = 0
        for line in result.stdout.split(separator: "\n") {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let time = try #require(object["timeNanoseconds"] as? Int)
            let thread = try #require(object["thread"] as? Int)
            #expect(object["kind"] is String)
            #expect(object["name"] is String)
            #expect(time >= 0)
            #expect(time >= latest[thread, default: 0], "\(sample): thread \(thread) went back at line \(lines + 1)")
            latest[thread] = time
            lines += 1
        }
        #expect(lines == count)
    }
}
