import BuiltProducts
import Foundation
@testable import ReactorInspector
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

    /// What `why NAME --json --limit 100000000` prints for each of `names` (its report, the issues that
    /// concern it, as JSON), from one pass explaining them all: the builder gives each name the
    /// collector a `why` pass gives its one name, so one pass answers them all as a pass for each would.
    static func whyTexts(_ path: String, _ names: Set<String>) throws -> [String: String] {
        let (model, _) = try TraceFile.model(path: path, options: TraceModelOptions(explaining: names,
                                                                                   whyEntryLimit: 100_000_000))
        var texts: [String: String] = [:]
        for name in names {
            var report = try #require(model.why(name), "\(name)")
            #expect(!report.isUnknown, "\(name)")
            report.attachIssues(model.issues)
            texts[name] = try JSONText.encode(report)
        }
        return texts
    }

    /// The names whose `why` the binary is asked for: all of a sample with few computations; of a
    /// larger one the first and last by name and those of the most and the fewest reruns.
    static func askedOfTheBinary(_ reruns: [String: Int]) -> Set<String> {
        guard reruns.count > 8 else { return Set(reruns.keys) }
        let byName = reruns.keys.sorted()
        let byReruns = reruns.sorted { ($0.value, $0.key) < ($1.value, $1.key) }.map(\.key)
        return [byName.first!, byName.last!, byReruns.first!, byReruns.last!]
    }

    @Test(arguments: ["counter", "todos", "profile", "stress", "stress-threads"])
    func rerunsCausedAgree(sample: String) throws {
        let trace = try SampleTrace.named(sample)
        let summary = try #require(try AgreementTests.sampleJSON("summary", trace.path, "--json", "--top", "1000000")
            as? [String: Any])
        let runsCaused = try Self.actions(summary["actions"], "runsCaused")
        let rerunsCaused = try Self.actions(summary["actions"], "rerunsCaused")

        let report = try #require(try AgreementTests.sampleJSON("report", trace.path, "--format", "json", "-o", "-")
            as? [String: Any])
        #expect(try Self.actions(report["actions"], "rerunsCaused") == rerunsCaused)

        let diffDocument = try #require(try AgreementTests.sampleJSON("diff", trace.path, trace.path, "--json") as? [String: Any])
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
        let hot = try #require(try AgreementTests.sampleJSON("hot", trace.path, "--json", "--top", "1000000") as? [[String: Any]])
        let names = Set(hot.compactMap { $0["name"] as? String })
        var rerunsByName: Counts = [:]
        for name in names {
            rerunsByName[name] = hot.filter { $0["name"] as? String == name }.reduce(0) { $0 + ($1["reruns"] as? Int ?? -1) }
        }
        // Every name's why from one pass; the binary's `why` prints the same, byte for byte, for a few of them
        // (between the model and the bytes, the command does the same for every name).
        let whyTexts = try Self.whyTexts(trace.path, names)
        for name in Self.askedOfTheBinary(rerunsByName) {
            let run = try AgreementRuns.run(["why", trace.path, name, "--json", "--limit", "100000000"])
            #expect(run.status == 0, "\(name): \(run.stderr)")
            #expect(run.stdout == whyTexts[name], "\(name)")
        }
        var runsByRoot: Counts = [:], rerunsByRoot: Counts = [:]
        for name in names {
            let text = try #require(whyTexts[name])
            let why = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            let entries = try #require(why["entries"] as? [[String: Any]])
            #expect(why["omittedEntries"] as? Int == 0, "\(name)")
            let reruns = try #require(rerunsByName[name])
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
