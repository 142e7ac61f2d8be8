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
        let result = try BuiltProducts.inspect("diff", first.path, second.path, "--fail-on-regression", "10")
        #expect(result.status == 0, "\(result.stdout)")
        #expect(result.stdout.hasPrefix("diff \(first.path) → \(second.path)\n"))
        #expect(result.stdout.contains("computations: 0 changed, 0 new, 0 gone"), "\(result.stdout)")
        #expect(result.stdout.contains("  total"))
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
