import BuiltProducts
import Foundation
import ReactorTrace
import Testing

/// Every view of a trace gives the same figures for what they share: runs,
/// reruns, totals, self time, maxima and percentiles per computation, events, flushes and
/// what a killed recording left unfinished (docs/METRICS.md), each node's values (`state`,
/// `history`, `replay`), through the built binary's JSON outputs and the Chrome and OTLP
/// exports, on every sample (values on and off, one thread and four, a killed recording).
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

    /// A command's JSON; a killed recording's trace is read up to its end with one warning and status 2.
    static func json(_ arguments: String...) throws -> Any {
        try document(of: BuiltProducts.run("reactor-inspect", arguments), arguments)
    }

    /// ``json(_:)`` of a command that writes nothing but its output, about a sample trace that does
    /// not change (`COMMAND TRACE …`): each such command line runs once per test process
    /// (``AgreementRuns``), and the tests that ask for it again share its output.
    static func sampleJSON(_ arguments: String...) throws -> Any {
        try document(of: AgreementRuns.run(arguments), arguments)
    }

    private static func document(of result: BuiltProducts.Run, _ arguments: [String]) throws -> Any {
        #expect(readWhole(result), "\(arguments): \(result.stderr)")
        return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
    }

    /// Status 0, or for a killed recording's trace 2 with the one warning that it has no end block.
    static func readWhole(_ result: BuiltProducts.Run) -> Bool {
        result.status == 0 || (result.status == 2 && result.stderr.contains("has no end block"))
    }

    /// Every event of the trace: the end block's count, or for a trace without one the chunks' counts.
    static func events(of reader: TraceReader) throws -> Int {
        _ = try reader.skipToEnd()
        return reader.end.map { Int($0.events) } ?? reader.eventsRead + reader.skippedEvents + reader.clockEvents
    }

    /// Each record's seven figures (docs/METRICS.md's per-computation keys), by name and kind.
    static func allFigures(_ array: Any?) throws -> [Key: [String: Int]] {
        var result: [Key: [String: Int]] = [:]
        for entry in try #require(array as? [[String: Any]]) {
            let key = Key(name: try #require(entry["name"] as? String), kind: try #require(entry["kind"] as? String))
            var figures: [String: Int] = [:]
            for field in ["runs", "reruns", "totalNanoseconds", "selfNanoseconds", "maxNanoseconds", "p50Nanoseconds",
                          "p99Nanoseconds"] {
                figures[field] = entry[field] as? Int
            }
            result[key] = figures
        }
        return result
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
        let hotDocument = try Self.sampleJSON("hot", trace.path, "--json", "--top", "1000000")
        let hot = try Self.records(hotDocument)
        #expect(!hot.isEmpty)

        // report --format json: the same records, every one of them.
        let report = try #require(try Self.sampleJSON("report", trace.path, "--format", "json", "-o", "-") as? [String: Any])
        let reportRecords = try Self.records(report["computations"])
        #expect(reportRecords == hot)
        let hotFigures = try Self.allFigures(hotDocument)
        #expect(try Self.allFigures(report["computations"]) == hotFigures)

        // check --json: the records the budget was measured on.
        let budget = FileManager.default.temporaryDirectory.appendingPathComponent("agreement-budget-\(sample).json").path
        try Data("{}".utf8).write(to: URL(fileURLWithPath: budget))
        let check = try #require(try Self.sampleJSON("check", trace.path, "--budget", budget, "--json") as? [String: Any])
        #expect(check["passed"] as? Bool == true)
        #expect(try Self.records(check["computations"]) == hot)
        #expect(try Self.allFigures(check["computations"]) == hotFigures)

        // top --json: every computation's reruns, total and p99, and the events.
        let top = try #require(try Self.sampleJSON("top", trace.path, "--json", "--top", "1000000") as? [String: Any])
        let topRows = try #require(top["hot"] as? [[String: Any]])
        #expect(topRows.count == hot.count)
        for row in topRows {
            let key = Key(name: try #require(row["name"] as? String), kind: try #require(row["kind"] as? String))
            let figures = try #require(hotFigures[key], "top's \(key) is not in hot")
            #expect(row["reruns"] as? Int == figures["reruns"], "\(key)")
            #expect(row["totalNanoseconds"] as? Int == figures["totalNanoseconds"], "\(key)")
            #expect(row["p99Nanoseconds"] as? Int == figures["p99Nanoseconds"], "\(key)")
        }

        // summary --json: the sums, and every event the end block counts.
        let summary = try #require(try Self.sampleJSON("summary", trace.path, "--json") as? [String: Any])
        #expect(summary["runs"] as? Int == hot.values.reduce(0) { $0 + $1.runs })
        #expect(summary["reruns"] as? Int == hot.values.reduce(0) { $0 + $1.reruns })
        #expect(report["runs"] as? Int == hot.values.reduce(0) { $0 + $1.runs })
        #expect(report["reruns"] as? Int == hot.values.reduce(0) { $0 + $1.reruns })
        let reader = try TraceReader(path: trace.path)
        let eventCount = try Self.events(of: reader)
        #expect(summary["events"] as? Int == eventCount)
        #expect(report["events"] as? Int == eventCount)
        #expect(top["events"] as? Int == eventCount)
        let unfinishedRuns = try #require(summary["unfinishedRuns"] as? Int)
        let unfinishedFlushes = try #require(summary["unfinishedFlushes"] as? Int)
        if sample.hasSuffix("killed") { #expect(unfinishedRuns > 0 && unfinishedFlushes > 0) }

        // diff of the trace with itself: each side's reruns and total.
        let diffDocument = try #require(try Self.sampleJSON("diff", trace.path, trace.path, "--json") as? [String: Any])
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
            let why = try #require(try Self.sampleJSON("why", trace.path, key.name, "--json", "--limit", "0") as? [String: Any])
            #expect(why["runs"] as? Int == hot[key]?.runs, "\(key)")
            #expect(why["reruns"] as? Int == hot[key]?.reruns, "\(key)")
        }

        // state at the end, history and replay: each node's values, in time order, for nodes with one name.
        if summary["eventsByKind"].flatMap({ ($0 as? [String: Any])?["value"] }) != nil {
            try Self.compareValues(trace.path)
        }

        // The Chrome export: one slice per run, as long as the run.
        let exported = FileManager.default.temporaryDirectory.appendingPathComponent("agreement-\(sample).json").path
        let export = try BuiltProducts.run("reactor-inspect", ["export", trace.path, "--format", "chrome", "-o", exported])
        #expect(Self.readWhole(export), "\(export.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: exported)))
            as? [String: Any])
        let events = try #require(document["traceEvents"] as? [[String: Any]])
        var open: [Int: [(Key?, Int)]] = [:]
        var slices: [Key: Figures] = [:]
        var flushSlices = 0, truncated: [String: Int] = [:]
        for event in events {
            guard let phase = event["ph"] as? String, phase == "B" || phase == "E",
                  let tid = event["tid"] as? Int, let ts = event["ts"] as? Double else { continue }
            let nanoseconds = Int((ts * 1000).rounded())
            let args = event["args"] as? [String: String] ?? [:]
            if phase == "B" {
                let key = args["run"] == nil ? nil : Key(name: event["name"] as? String ?? "", kind: args["kind"] ?? "")
                open[tid, default: []].append((key, nanoseconds))
                if args["kind"] == "flush" { flushSlices += 1 }
            } else if args["truncated"] != nil {
                // Where the trace stopped: its run, flush or action went on.
                let kind = open[tid]?.last?.0 == nil ? (event["name"] as? String == "flush" ? "flush" : "action") : "run"
                truncated[kind, default: 0] += 1
            }
            if phase == "E", let (key, begin) = open[tid]?.popLast(), let key {
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
        #expect(flushSlices - truncated["flush", default: 0] == summary["flushes"] as? Int)
        #expect(truncated["flush", default: 0] == unfinishedFlushes)
        #expect(truncated["run", default: 0] == unfinishedRuns)
        for (key, figures) in hot where figures.runs > 0 {
            let exportedFigures = try #require(slices[key], "\(key) has no slices")
            #expect(exportedFigures.runs == figures.runs, "\(key)")
            #expect(exportedFigures.totalNanoseconds == figures.totalNanoseconds, "\(key)")
            #expect(exportedFigures.maxNanoseconds == figures.maxNanoseconds, "\(key)")
        }

        // The OTLP export: one run span per run, as long as the run.
        let spansPath = FileManager.default.temporaryDirectory.appendingPathComponent("agreement-\(sample).otlp.json").path
        let otlp = try BuiltProducts.run("reactor-inspect", ["export", trace.path, "--format", "otlp", "-o", spansPath])
        #expect(Self.readWhole(otlp), "\(otlp.stderr)")
        let request = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: spansPath)))
            as? [String: Any])
        let resource = try #require((request["resourceSpans"] as? [[String: Any]])?.first)
        let spans = try #require(((resource["scopeSpans"] as? [[String: Any]])?.first)?["spans"] as? [[String: Any]])
        var spanFigures: [Key: Figures] = [:]
        var flushSpans = 0, unfinishedSpans: [String: Int] = [:]
        for span in spans {
            var attributes: [String: String] = [:]
            var unfinished = false
            for attribute in span["attributes"] as? [[String: Any]] ?? [] {
                if let key = attribute["key"] as? String, let value = (attribute["value"] as? [String: Any])?["stringValue"] as? String {
                    attributes[key] = value
                }
                if attribute["key"] as? String == "reactor.unfinished" {
                    unfinished = (attribute["value"] as? [String: Any])?["boolValue"] as? Bool == true
                }
            }
            if unfinished { unfinishedSpans[attributes["reactor.span.kind"] ?? "", default: 0] += 1 }
            if attributes["reactor.span.kind"] == "flush", !unfinished { flushSpans += 1 }
            if attributes["reactor.span.kind"] == "recording" {
                // The recording's event count is the trace's: every event, as summary counts them.
                let events = (span["attributes"] as? [[String: Any]] ?? []).first { $0["key"] as? String == "reactor.events" }
                let count = ((events?["value"] as? [String: Any])?["intValue"]).flatMap { "\($0)" }
                #expect(count == "\(eventCount)", "\(sample): reactor.events")
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
        #expect(flushSpans == summary["flushes"] as? Int)
        #expect(unfinishedSpans["flush", default: 0] == unfinishedFlushes)
        #expect(unfinishedSpans["run", default: 0] == unfinishedRuns)
        for (key, figures) in hot where figures.runs > 0 {
            let exportedFigures = try #require(spanFigures[key], "\(key) has no spans")
            #expect(exportedFigures.runs == figures.runs, "\(key)")
            #expect(exportedFigures.totalNanoseconds == figures.totalNanoseconds, "\(key)")
            #expect(exportedFigures.maxNanoseconds == figures.maxNanoseconds, "\(key)")
        }
    }

    /// Each node's values at the end of the trace (`state --at end`), its history (`history`,
    /// old → new each the value before) and `replay`'s value lines in time order: the same
    /// values, for three nodes with a name of their own and one whose name others share.
    static func compareValues(_ path: String) throws {
        let state = try #require(try json("state", path, "--at", "end", "--json") as? [[String: Any]])
        var holders: [String: Int] = [:]
        for entry in state { holders[entry["name"] as? String ?? "", default: 0] += 1 }
        let valued = state.filter { $0["value"] is String }
        let chosen = Array(valued.filter { holders[$0["name"] as? String ?? ""] == 1 }.prefix(3))
            + valued.filter { holders[$0["name"] as? String ?? "", default: 0] > 1 }.prefix(1)
        #expect(!chosen.isEmpty)
        let replay = try BuiltProducts.run("reactor-inspect", ["replay", path, "--json", "--filter", "kind:value"])
        var replayed: [String: [(time: Int, line: Int, value: String)]] = [:]
        for (index, line) in Self.lines(replay.stdout).enumerated() {
            let object = try #require(try JSONSerialization.jsonObject(with: line) as? [String: Any])
            guard let name = object["name"] as? String, let value = object["value"] as? String,
                  let time = object["timeNanoseconds"] as? Int else { continue }
            replayed[name, default: []].append((time, index, value))
        }
        for entry in chosen {
            let name = try #require(entry["name"] as? String), id = try #require(entry["id"] as? Int)
            let history = try #require(try json("history", path, name, "--json") as? [[String: Any]])
            let mine = history.filter { $0["node"] as? Int == id }
            #expect(mine.last?["value"] as? String == entry["value"] as? String, "\(name)")
            #expect(mine.last?["timeNanoseconds"] as? Int == entry["valueTimeNanoseconds"] as? Int, "\(name)")
            for (before, after) in zip(mine, mine.dropFirst()) {
                #expect(after["previous"] as? String == before["value"] as? String, "\(name)")
            }
            guard holders[name] == 1 else { continue }
            let values = (replayed[name] ?? []).sorted { ($0.time, $0.line) < ($1.time, $1.line) }.map(\.value)
            #expect(values == mine.compactMap { $0["value"] as? String }, "\(name)")
        }
    }

    /// Each line of `text` as UTF-8 bytes, split by byte (split by Character, the megabytes of a
    /// replay take seconds in a debug build).
    static func lines(_ text: String) -> [Data] {
        text.utf8.split(separator: UInt8(ascii: "\n")).map { Data($0) }
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
        let hot = Self.byName(try Self.records(try Self.sampleJSON("hot", trace.path, "--json", "--top", "1000000")))
        let result = try BuiltProducts.run("reactor-inspect", ["replay", trace.path, "--json", "--filter", "rerun"])
        #expect(Self.readWhole(result), "\(result.stderr)")
        var replayed: [String: Figures] = [:]
        var open: [Int: [String]] = [:]
        for line in Self.lines(result.stdout) {
            let object = try #require(try JSONSerialization.jsonObject(with: line) as? [String: Any])
            let name = try #require(object["name"] as? String), thread = try #require(object["thread"] as? Int)
            var figures = replayed[name] ?? Figures(runs: 0, reruns: 0, totalNanoseconds: 0, maxNanoseconds: 0)
            if object["kind"] as? String == "rerun-begin" {
                figures.runs += 1
                if object["firstRun"] as? Bool == false { figures.reruns += 1 }
                open[thread, default: []].append(name)
            } else if let duration = object["durationNanoseconds"] as? Int {
                figures.totalNanoseconds += duration
                figures.maxNanoseconds = max(figures.maxNanoseconds, duration)
                if let index = open[thread]?.lastIndex(of: name) { open[thread]!.removeSubrange(index...) }
            }
            replayed[name] = figures
        }
        #expect(!replayed.isEmpty)
        // A run the trace did not end has no end line to give its duration: its name's runs are compared.
        let unfinished = Set(open.values.joined())
        #expect(sample.hasSuffix("killed") ? !unfinished.isEmpty : unfinished.isEmpty)
        #expect(replayed.mapValues { [$0.runs, $0.reruns] } == hot.mapValues { [$0.runs, $0.reruns] })
        #expect(replayed.filter { !unfinished.contains($0.key) } == hot.filter { !unfinished.contains($0.key) })
    }

    @Test(arguments: SampleTrace.agreementSamples)
    func replayTimesNeverGoBackWithinAThread(sample: String) throws {
        let trace = try SampleTrace.named(sample)
        let result = try BuiltProducts.run("reactor-inspect", ["replay", trace.path, "--json"])
        #expect(Self.readWhole(result), "\(result.stderr)")
        let reader = try TraceReader(path: trace.path)
        let count = try reader.skipToEnd()
        var latest: [Int: Int] = [:]
        var lines = 0
        for line in Self.lines(result.stdout) {
            let object = try #require(try JSONSerialization.jsonObject(with: line) as? [String: Any])
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
