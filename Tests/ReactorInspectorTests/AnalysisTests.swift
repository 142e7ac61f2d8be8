import Foundation
import ReactorCore
import ReactorTrace
import Testing
@testable import ReactorInspector

@Suite struct HotReportTests {
    @Test func ranksByRerunsWithCausesAndPercentiles() throws {
        let report = HotReport(model: EventScript.todos(adds: 3).model(), by: .reruns, top: 10)
        // list and count tie on reruns; list spent more time.
        #expect(report.entries.map(\.name) == ["visibleTodos", "list", "count"])
        let list = try #require(report.entries.first { $0.name == "list" })
        #expect(list.reruns == 3)
        #expect(list.runs == 4)
        // The first run (530 ns, it computes visibleTodos inside) is the longest; reruns take 500 ns.
        #expect(list.maxNanoseconds == 530)
        #expect(list.p50Nanoseconds >= 470 && list.p50Nanoseconds <= 530)
        #expect(list.topCauses == [CauseCount(cause: "visibleTodos", count: 3)])
        #expect(list.topActions == [CauseCount(cause: "TodoStore.addTodo(_:)", count: 3)])
        let visible = try #require(report.entries.first)
        #expect(visible.topCauses == [CauseCount(cause: "TodoStore.todos", count: 3),
                                      CauseCount(cause: "TodoStore.filter", count: 1)])
    }

    @Test func ranksByTimeAndLimits() {
        let report = HotReport(model: EventScript.todos(adds: 3).model(), by: .time, top: 1)
        #expect(report.entries.map(\.name) == ["list"])
        #expect(report.computationCount == 3)
    }

    @Test func groupsInstancesByName() throws {
        let report = HotReport(model: EventScript.nested().model(), top: nil)
        let inner = try #require(report.entries.first { $0.name == "inner" })
        #expect(inner.instances == 2)
        #expect(inner.runs == 2)
        #expect(inner.reruns == 0)
        #expect(inner.topCauses == [CauseCount(cause: "parent", count: 1)])
    }

    @Test func jsonHasTheContractKeys() throws {
        let report = HotReport(model: EventScript.todos(adds: 2).model())
        let data = try JSONEncoder().encode(report.entries)
        let objects = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        let first = try #require(objects.first)
        for key in ["name", "reruns", "totalNanoseconds", "maxNanoseconds", "topCauses"] {
            #expect(first[key] != nil, "missing \(key)")
        }
        #expect(first["reruns"] as? Int == 3)
    }

    @Test func textListsEachComputation() {
        let text = HotReport(model: EventScript.todos(adds: 2).model()).text()
        #expect(text.contains("Hot computations by reruns (3 of 3)"))
        #expect(text.contains("visibleTodos"))
        #expect(text.contains("TodoStore.todos ×2"))
        #expect(!text.contains("\u{1B}["))
        #expect(HotReport(model: EventScript.todos(adds: 2).model()).text(style: .ansi).contains("\u{1B}[1m"))
    }
}

@Suite struct SummaryReportTests {
    @Test func countsEverything() throws {
        let model = EventScript.todos(adds: 2).model()
        let summary = SummaryReport(model: model)
        #expect(summary.events == model.eventCount)
        #expect(summary.nodes == 6)
        #expect(summary.nodesByKind == ["store": 1, "property": 2, "computed": 1, "autorun": 2])
        #expect(summary.eventsByKind["action-begin"] == 3)
        #expect(summary.flushes == 3)
        #expect(summary.runs == 3 + 2 * 3 + 1)
        #expect(summary.reruns == 7)
        #expect(summary.actions.first == SummaryReport.ActionLine(name: "TodoStore.addTodo(_:)", count: 2, runsCaused: 6,
                                                                                 rerunsCaused: 6))
        #expect(summary.durationNanoseconds == model.durationNanoseconds)
        #expect(summary.liveEdges == 4)
    }

    @Test func jsonHasTheContractKeys() throws {
        let data = try JSONEncoder().encode(SummaryReport(model: EventScript.todos().model()))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["events"] as? Int == EventScript.todos().events.count)
        #expect(object["nodes"] as? Int == 6)
        #expect(object["durationNanoseconds"] is Int)
    }

    @Test func textMentionsIssues() {
        var script = EventScript.todos(adds: 1)
        script.emit(.issue(kind: .cycle, node: 0, message: "computed values form a cycle: a -> b -> a"))
        let text = SummaryReport(model: script.model()).text()
        #expect(text.contains("cycle ×1"))
        #expect(text.contains("a -> b -> a"))
        #expect(text.contains("TodoStore.addTodo(_:)"))
    }
}

@Suite struct ReplayTests {
    private func lines(_ script: EventScript, _ filter: ReplayFilter = ReplayFilter()) -> [String] {
        var formatter = ReplayFormatter(filter: filter)
        return script.events.compactMap { formatter.line(for: $0) }
    }

    @Test func printsOneLineAnEventWithNamesAndDurations() {
        let script = EventScript.todos(adds: 1)
        let output = lines(script)
        #expect(output.count == script.events.count)
        #expect(output.contains { $0.contains("action-begin") && $0.contains("TodoStore.addTodo(_:) \"todo 0\"") })
        #expect(output.contains { $0.contains("invalidate") && $0.contains("computed visibleTodos by TodoStore.todos") })
        #expect(output.contains { $0.contains("rerun-end") && $0.contains("autorun list 500 ns") })
    }

    @Test func filtersByKindNameAndTime() {
        let script = EventScript.todos(adds: 2)
        let reruns = lines(script, ReplayFilter(kinds: ReplayFilter.kinds(named: "rerun")))
        #expect(reruns.count == script.events.filter { $0.record.kind == .rerunBegan || $0.record.kind == .rerunEnded }.count)
        let named = lines(script, ReplayFilter(kinds: [.rerunBegan], names: ["LIST"]))
        #expect(named.count == 3)
        let start = script.events[20].timestamp, end = script.events[30].timestamp
        let window = lines(script, ReplayFilter(from: start, to: end))
        #expect(window.count == script.events.filter { $0.timestamp >= start && $0.timestamp <= end }.count)
    }

    @Test func nameFilterMatchesActionNames() {
        let script = EventScript.todos(adds: 2)
        let actions = lines(script, ReplayFilter(kinds: ReplayFilter.kinds(named: "action"), names: ["addtodo"]))
        #expect(actions.count == 4)
        #expect(actions.allSatisfy { $0.contains("TodoStore.addTodo(_:)") })
    }

    @Test func kindWordsCoverFamilies() {
        #expect(ReplayFilter.kinds(named: "action") == [.actionBegan, .actionEnded])
        #expect(ReplayFilter.kinds(named: "depend") == [.depend])
        #expect(ReplayFilter.kinds(named: "bogus") == nil)
    }

    @Test func indentsNestedRuns() throws {
        let output = lines(EventScript.todos(adds: 0), ReplayFilter(kinds: [.rerunBegan]))
        let inner = try #require(output.first { $0.contains("visibleTodos") })
        let outer = try #require(output.first { $0.contains("autorun list") })
        #expect(inner.components(separatedBy: "  computed").first!.count > outer.components(separatedBy: "  autorun").first!.count)
    }
}

@Suite struct DurationTests {
    @Test func histogramPercentilesStayWithinPrecision() {
        var histogram = DurationHistogram()
        for value in 1...1_000 { histogram.record(UInt64(value) * 1_000) }
        #expect(histogram.count == 1_000)
        #expect(histogram.maximum == 1_000_000)
        #expect(histogram.minimum == 1_000)
        let p50 = Double(histogram.percentile(0.5)), p99 = Double(histogram.percentile(0.99))
        #expect(abs(p50 - 500_000) / 500_000 < 0.07)
        #expect(abs(p99 - 990_000) / 990_000 < 0.07)
        #expect(histogram.percentile(1) == 1_000_000)
    }

    @Test func histogramMemoryIsBoundedAndMergeAdds() {
        var a = DurationHistogram(), b = DurationHistogram()
        for value in 0..<100_000 { a.record(UInt64(value % 5_000)) }
        b.record(7)
        a.merge(b)
        #expect(a.count == 100_001)
        #expect(DurationHistogram.bucket(of: .max) < 500)
        for value: UInt64 in [0, 7, 8, 9, 100, 12345, 1 << 40] {
            let (low, high) = DurationHistogram.bounds(of: DurationHistogram.bucket(of: value))
            #expect(low <= value && value <= high)
        }
    }

    @Test func formatsAndParsesDurations() {
        #expect(DurationText.format(850) == "850 ns")
        #expect(DurationText.format(12_340) == "12.3 µs")
        #expect(DurationText.format(4_560_000) == "4.56 ms")
        #expect(DurationText.format(1_200_000_000) == "1.20 s")
        #expect(DurationText.formatTime(12_345_678) == "12.345 ms")
        #expect(DurationText.parse("1.5ms") == 1_500_000)
        #expect(DurationText.parse("250us") == 250_000)
        #expect(DurationText.parse("2s") == 2_000_000_000)
        #expect(DurationText.parse("42ns") == 42)
        #expect(DurationText.parse("3") == 3_000_000)
        #expect(DurationText.parse("soon") == nil)
        #expect(DurationText.parse("-1ms") == nil)
    }
}
