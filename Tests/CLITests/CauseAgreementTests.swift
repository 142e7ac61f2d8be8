import BuiltProducts
import Foundation
import Testing

/// Every view that charges runs to the actions that caused them agrees
/// (docs/METRICS.md, "Causes"): per action, the report's reruns caused, the
/// summary's (the model's) and diff's; and `why`'s chains, counted by their
/// root, give the same figures and account for every rerun of every computation.
@Suite struct CauseAgreementTests {
    typealias Counts = [String: Int]

    private static func actions(_ array: Any?, _ key: String) throws -> Counts {
        let entries = try #require(array as? [[String: Any]])
        var result: Counts = [:]
        for entry in entries {
            result[try #require(entry["name"] as? String)] = try #require(entry[key] as? Int, "\(key) of \(entry)")
        }
        return result
    }

    @Test(arguments: ["counter", "todos", "profile", "stress", "stress-threads"])
    func rerunsCausedAgree(sample: String) throws {
        let trace = try SampleTrace.named(sample)
        let summary = try #require(try AgreementTests.json("summary", trace.path, "--json", "--top", "1000000")
            as? [String: Any])
        let runsCaused = try Self.actions(summary["actions"], "runsCaused")
        let rerunsCaused = try Self.actions(summary["actions"], "rerunsCaused")

        let report = try #require(try AgreementTests.json("report", trace.path, "--format", "json", "-o", "-")
            as? [String: Any])
        #expect(try Self.actions(report["actions"], "rerunsCaused") == rerunsCaused)

        let diffDocument = try #require(try AgreementTests.json("diff", trace.path, trace.path, "--json") as? [String: Any])
        let diff = try #require(diffDocument["diff"] as? [String: Any])
        let diffActions = try #require(diff["actions"] as? [[String: Any]])
        var diffed: Counts = [:]
        for entry in diffActions {
            let name = try #require(entry["name"] as? String)
            let base = try #require(entry["base"] as? [String: Any]), head = try #require(entry["head"] as? [String: Any])
            #expect(base["reruns"] as? Int == head["reruns"] as? Int, "\(name)")
            diffed[name] = base["reruns"] as? Int
        }
        #expect(diffed == rerunsCaused)

        // why, for every computation hot lists: one chain per run, and the
        // roots of those chains are the actions charged above.
        let hot = try #require(try AgreementTests.json("hot", trace.path, "--json", "--top", "1000000") as? [[String: Any]])
        let names = hot.compactMap { $0["name"] as? String }
        var runsByRoot: Counts = [:], rerunsByRoot: Counts = [:]
        for name in Set(names) {
            let why = try #require(try AgreementTests.json("why", trace.path, name, "--json", "--limit", "100000000")
                as? [String: Any])
            let entries = try #require(why["entries"] as? [[String: Any]])
            #expect(why["omittedEntries"] as? Int == 0, "\(name)")
            let reruns = hot.filter { $0["name"] as? String == name }.reduce(0) { $0 + ($1["reruns"] as? Int ?? -1) }
            #expect(why["reruns"] as? Int == reruns, "\(name)")
            #expect(entries.filter { $0["event"] as? String == "rerun" }.count == reruns, "\(name)")
            for entry in entries where entry["event"] as? String != "stopped" {
                let chain = try #require(entry["chain"] as? [String])
                guard let root = chain.first,
                      let action = runsCaused.keys.first(where: { root == "action \($0)" || root.hasPrefix("action \($0) ") })
                else { continue }
                runsByRoot[action, default: 0] += 1
                if entry["event"] as? String == "rerun" { rerunsByRoot[action, default: 0] += 1 }
            }
        }
        #expect(runsByRoot == runsCaused.filter { $0.value > 0 })
        #expect(rerunsByRoot == rerunsCaused.filter { $0.value > 0 })
    }
}
