import BuiltProducts
import Foundation
import ReportAssertions
import Testing

@Suite struct DiffCommandTests {
    @Test func jsonDiffMatchesTheSamplesOwnCounts() throws {
        let traces = try SampleTraces.load()
        let result = try BuiltProducts.inspect("diff", traces.stressBase, traces.stressHead, "--json")
        #expect(result.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let entries = try #require((object["diff"] as? [String: Any])?["computations"] as? [[String: Any]])
        try #require(!traces.stressHeadReruns.isEmpty)
        for (name, headReruns) in traces.stressHeadReruns {
            let entry = try #require(entries.first { $0["name"] as? String == name }, "\(name) missing")
            let head = try #require(entry["head"] as? [String: Any])
            #expect(head["reruns"] as? Int == headReruns, "\(name)")
            let baseReruns = traces.stressBaseReruns[name] ?? 0
            #expect(entry["rerunsDelta"] as? Int == headReruns - baseReruns, "\(name)")
        }
        // Sorted by impact: the absolute time change never grows down the list.
        let deltas = entries.map { abs($0["timeDeltaNanoseconds"] as? Int ?? 0) }
        #expect(deltas == deltas.sorted(by: >))
    }

    @Test(arguments: ["todos", "stress"])
    func theSameScenarioRecordedTwiceIsUnchanged(sample: String) throws {
        let first = try SampleTrace.named(sample)
        let arguments = sample == "stress" ? ["--computations", "60", "--writes", "300"] : []
        let second = try SampleTrace.record(sample, arguments, file: "\(sample)-again")
        // Reruns are exact: the same scenario reruns the same computations, each
        // the same number of times. Times are what the machine gave each
        // recording: a busy machine can stretch one past the noise rule, which
        // diff then reports, rightly, as a change of time and nothing else.
        let json = try BuiltProducts.inspect("diff", first.path, second.path, "--json", "--fail-on-regression", "10")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let diff = try #require(object["diff"] as? [String: Any])
        let entries = try #require(diff["computations"] as? [[String: Any]]) + (try #require(diff["actions"] as? [[String: Any]]))
        #expect(!entries.isEmpty)
        for entry in entries {
            let name = entry["name"] as? String ?? "?"
            #expect(entry["rerunsDelta"] as? Int == 0, "\(name)")
            #expect(entry["status"] as? String == "unchanged" || entry["timeChanged"] as? Bool == true, "\(name): \(entry)")
        }
        let timeChanged = Set(entries.filter { $0["timeChanged"] as? Bool == true }.compactMap { $0["name"] as? String })

        // Only a change of time can regress, and only one the noise rule let through.
        let regressed = entries.filter { $0["regressed"] as? Bool == true }.compactMap { $0["name"] as? String }
        #expect(Set(regressed).isSubset(of: timeChanged), "\(regressed)")
        #expect(json.status == (regressed.isEmpty ? 0 : 1))

        let result = try BuiltProducts.inspect("diff", first.path, second.path, "--fail-on-regression", "10")
        #expect(result.status == json.status, "\(result.stdout)")
        #expect(result.stdout.hasPrefix("diff \(first.path) → \(second.path)\n"))
        #expect(result.stdout.contains("  total"))
        let computations = entries.filter { $0["kind"] as? String != "action" }
        let changed = computations.filter { timeChanged.contains($0["name"] as? String ?? "") }.count
        #expect(result.stdout.contains("computations: \(changed) changed, 0 new, 0 gone"), "\(result.stdout)")
    }

    @Test func failOnRegression() throws {
        let traces = try SampleTraces.load()
        let regressed = try BuiltProducts.inspect("diff", traces.stressBase, traces.stressHead, "--fail-on-regression", "20")
        #expect(regressed.status == 1)
        #expect(regressed.stdout.contains("regressed over 20%"))
        let reverse = try BuiltProducts.inspect("diff", traces.stressBase, traces.stressBase, "--fail-on-regression", "0")
        #expect(reverse.status == 0)
        #expect(reverse.stdout.contains("computations: 0 changed, 0 new, 0 gone"))
    }

    @Test func newAndGoneAcrossSamples() throws {
        let traces = try SampleTraces.load()
        let result = try BuiltProducts.inspect("diff", traces.counter, traces.stressBase, "--markdown", "--top", "100")
        #expect(result.status == 0)
        #expect(result.stdout.contains("| ➖ | `label` | autorun | 100 → – |"))
        try MarkdownAssertions.expectWellFormedTables(result.stdout)
    }
}
