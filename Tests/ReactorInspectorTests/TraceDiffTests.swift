import ReportAssertions
import Testing
import Foundation
import ReactorCore
import ReactorTrace
@testable import ReactorInspector

@Suite struct TraceDiffTests {
    let base = TraceProfile.build(from: TraceScript.todos(count: 4, listNanoseconds: 1_000_000))

    func head(count: Int, listNanoseconds: UInt64, extra: Bool = false) -> TraceProfile {
        var events = TraceScript.todos(count: count, listNanoseconds: listNanoseconds)
        if extra {
            // A new computation, and the footer gone (renamed).
            events = events.map { event in
                guard case .nodeCreated(let id, let kind, "Footer.count", let parent) = event.record else { return event }
                var renamed = event
                renamed.record = .nodeCreated(id: id, kind: kind, name: "Footer.total", parent: parent)
                return renamed
            }
        }
        return TraceProfile.build(from: events)
    }

    @Test func matchesByNameAndComputesChanges() throws {
        let diff = TraceDiff(base: base, head: head(count: 6, listNanoseconds: 1_000_000))
        let list = try #require(diff.computations.first { $0.name == "TodoList.list" })
        #expect(list.status == .changed)
        #expect(list.rerunsDelta == 2)
        #expect(list.rerunsPercent == 50)
        #expect(list.timeDeltaNanoseconds == 2_000_000)
        // Of the base's total, whose first run (identical in both) is included: just under 50%.
        #expect(try #require(list.timePercent) > 49.99 && list.timePercent! < 50)
        // Sorted by impact: list's +2 ms outweighs visibleTodos' +0.1 ms and footer's +0.06 ms.
        #expect(diff.computations.map(\.name) == ["TodoList.list", "visibleTodos", "Footer.count"])
        let action = try #require(diff.actions.first)
        #expect(action.name == "TodoStore.addTodo(_:)")
        #expect(action.rerunsDelta == 6)
        #expect(action.head?.count == 6)
    }

    @Test func newAndGoneNodes() throws {
        let diff = TraceDiff(base: base, head: head(count: 4, listNanoseconds: 1_000_000, extra: true))
        #expect(diff.computations.first { $0.name == "Footer.total" }?.status == .new)
        #expect(diff.computations.first { $0.name == "Footer.count" }?.status == .gone)
        #expect(diff.computations.first { $0.name == "TodoList.list" }?.status == .unchanged)
        let text = diff.text(basePath: "base.bin", headPath: "head.bin")
        #expect(text.contains("+ Footer.total (new: 4 reruns, 0.12 ms)"))
        #expect(text.contains("- Footer.count (gone: had 4 reruns, 0.12 ms)"))
    }

    @Test func aComputationThatNoLongerRunsIsChangedNotGone() throws {
        // In head the footer is still created but never runs (nothing reads it).
        let events = TraceScript.todos(count: 4, listNanoseconds: 1_000_000).filter { event in
            switch event.record {
            case .rerunBegan(TraceScript.footer, _), .rerunEnded(TraceScript.footer),
                 .depend(TraceScript.footer, _), .invalidated(TraceScript.footer, _, _): false
            default: true
            }
        }
        let diff = TraceDiff(base: base, head: TraceProfile.build(from: events))
        let footer = try #require(diff.computations.first { $0.name == "Footer.count" })
        #expect(footer.status == .changed)
        #expect(footer.head?.reruns == 0)
        #expect(footer.rerunsDelta == -4)
        #expect(footer.rerunsPercent == -100)
        let text = diff.text(basePath: "base.bin", headPath: "head.bin")
        #expect(text.contains("computations: 1 changed, 0 new, 0 gone"))
        #expect(text.contains("4 → 0"))
    }

    @Test func regressionThreshold() {
        let slower = head(count: 4, listNanoseconds: 1_500_000)
        #expect(TraceDiff(base: base, head: slower, regressionThresholdPercent: 30).regressions.map(\.name)
            == ["TodoList.list", "TodoStore.addTodo(_:)"])   // the action's time holds its flush
        #expect(TraceDiff(base: base, head: slower, regressionThresholdPercent: 60).exitCode == 0)
        #expect(TraceDiff(base: base, head: slower, regressionThresholdPercent: 30).exitCode == 1)
        // Without a threshold nothing is a regression.
        #expect(TraceDiff(base: base, head: slower).exitCode == 0)
        // Faster is never a regression.
        #expect(TraceDiff(base: slower, head: base, regressionThresholdPercent: 0).regressions.isEmpty)
        // Jitter within the noise rule is neither a change nor a regression, whatever the threshold.
        let jitter = head(count: 4, listNanoseconds: 1_100_000)
        let jittered = TraceDiff(base: base, head: jitter, regressionThresholdPercent: 0.5, minimumTimeNanoseconds: 0)
        #expect(jittered.regressions.isEmpty)
        #expect(jittered.computations.allSatisfy { $0.status == .unchanged })
        // Beyond the noise rule but under the absolute floor: still noise.
        let floored = TraceDiff(base: base, head: slower, regressionThresholdPercent: 0.5, minimumTimeNanoseconds: 1_000_000)
        #expect(floored.computations.allSatisfy { $0.status == .unchanged })
    }

    @Test func noiseRuleKeepsTimeJitterUnchangedAndRerunsExact() throws {
        // A typical run 20% slower (within the rule) with the same reruns: unchanged.
        let noisy = TraceDiff(base: base, head: head(count: 4, listNanoseconds: 1_200_000))
        #expect(noisy.computations.allSatisfy { $0.status == .unchanged && !$0.timeChanged })
        // One rerun more is a change whatever the time.
        let more = TraceDiff(base: base, head: head(count: 5, listNanoseconds: 1_000_000))
        let list = try #require(more.computations.first { $0.name == "TodoList.list" })
        #expect(list.status == .changed)
        #expect(!list.timeChanged)
        // 50% slower: beyond it.
        let slower = TraceDiff(base: base, head: head(count: 4, listNanoseconds: 1_500_000))
        #expect(slower.computations.first { $0.name == "TodoList.list" }?.timeChanged == true)
    }

    @Test func textStartsWithTheTracesAndEndsEachSectionWithTotals() {
        let diff = TraceDiff(base: base, head: head(count: 6, listNanoseconds: 1_000_000))
        let lines = diff.text(basePath: "a.bin", headPath: "b.bin").split(separator: "\n").map(String.init)
        #expect(lines.first == "diff a.bin → b.bin")
        #expect(lines[1].contains("25%"))
        let total = lines.first { $0.hasPrefix("  total") }
        // Every name counted, unchanged ones too: list 4 → 6, visibleTodos 4 → 6, footer 4 → 6.
        #expect(total?.contains("12 → 18") == true)
        // Nothing changed: the section still says its totals.
        let same = TraceDiff(base: base, head: head(count: 4, listNanoseconds: 1_000_000))
        #expect(same.text(basePath: "a", headPath: "b").contains("computations: 0 changed, 0 new, 0 gone, 3 unchanged"))
        #expect(same.text(basePath: "a", headPath: "b").contains("  total"))
        #expect(same.markdown(basePath: "a", headPath: "b").contains("No change in reruns or time."))
    }

    @Test func jsonAndMarkdown() throws {
        let diff = TraceDiff(base: base, head: head(count: 6, listNanoseconds: 1_000_000), regressionThresholdPercent: 10)
        let json = try diff.json(basePath: "a.bin", headPath: "b.bin")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(object["base"] as? String == "a.bin")
        #expect((object["regressions"] as? [String])?.contains("TodoList.list") == true)
        let entries = try #require((object["diff"] as? [String: Any])?["computations"] as? [[String: Any]])
        #expect(entries.first?["name"] as? String == "TodoList.list")
        #expect(entries.first?["rerunsDelta"] as? Int == 2)
        let markdown = diff.markdown(basePath: "a.bin", headPath: "b.bin")
        try MarkdownAssertions.expectWellFormedTables(markdown)
        #expect(markdown.contains("| 🔺 | `TodoList.list` | autorun | 4 → 6 | +2 (+50%) | 4 → 6 | +2 (+50%) |"))
    }
}
