import BuiltProducts
import Foundation
import Testing
import TracerSlot

/// Random graphs over one secret source, recorded with values on: no form of
/// any secret reaches the trace, nor any output of any command (`serve`'s
/// answers included), while the clear values still do.
@Suite(.serialized) struct SecretLeakTests {
    /// Every output of every command on `trace` (and `other`, for `diff`), by
    /// what made it, asking `history` about `valueNodes` and `why` about `computeds`.
    static func outputs(of trace: String, other: String, valueNodes: [String],
                        computeds: [String]) throws -> [(String, String)] {
        let directory = try CICommand.temporaryDirectory()
        let budget = directory.appendingPathComponent("budget.json")
        try #"{ "computations": [ { "match": "*", "maxReruns": 1 } ] }"#.write(to: budget, atomically: true, encoding: .utf8)
        let junit = directory.appendingPathComponent("check.xml")
        // The last action: the state and the graph at the moment it began.
        let summary = try BuiltProducts.inspect("summary", trace, "--json")
        let counts = (try JSONSerialization.jsonObject(with: Data(summary.stdout.utf8)) as? [String: Any])?["eventsByKind"]
        let last = "action:\((counts as? [String: Any])?["action-begin"] as? Int ?? 1)"
        var runs: [[String]] = [
            ["summary", trace], ["summary", trace, "--json"], ["hot", trace], ["replay", trace], ["replay", trace, "--json"],
            ["state", trace, "--at", last], ["state", trace, "--at", "action:3", "--json"],
            ["graph", trace, "--at", last, "--format", "svg", "-o", "-"], ["graph", trace, "--at", "action:2", "--format", "dot", "-o", "-"],
            ["report", trace, "--format", "html", "-o", "-"], ["report", trace, "--format", "md", "-o", "-"],
            ["report", trace, "--format", "json", "-o", "-"],
            ["export", trace, "--format", "chrome", "-o", "-"], ["export", trace, "--format", "otlp", "-o", "-"],
            ["diff", other, trace], ["diff", other, trace, "--json"], ["diff", other, trace, "--markdown"],
            ["check", trace, "--budget", budget.path, "--verbose"], ["check", trace, "--budget", budget.path, "--json"],
            ["check", trace, "--budget", budget.path, "--junit", junit.path],
        ]
        for name in valueNodes { runs += [["history", trace, name], ["history", trace, name, "--json"]] }
        // Asked twice: the second answer comes from the explanation the first kept in the index.
        for name in computeds + ["everything"] { runs += [["why", trace, name, "--json"], ["why", trace, name]] }
        var outputs: [(String, String)] = []
        for arguments in runs {
            let run = try BuiltProducts.run("reactor-inspect", arguments + ["--no-progress"])
            // Each command read the trace and answered (check: over its budget, 1).
            #expect(run.status == 0 || (arguments[0] == "check" && run.status == 1),
                    "\(arguments.joined(separator: " ")): \(run.stderr)")
            outputs.append((arguments.joined(separator: " "), run.stdout + run.stderr))
        }
        outputs.append(("check --junit file", (try? String(contentsOf: junit, encoding: .utf8)) ?? ""))

        let server = try InspectorClient(trace: trace)
        var targets = ["/api/summary", "/api/snapshot", "/api/graph", "/api/replay?limit=100000", "/api/state?at=\(last)",
                       "/api/state?at=action:2"]
        targets += (computeds + ["everything"]).map { "/api/why?limit=100&node=\($0)" }
        for target in targets {
            let response = try server.get(target)
            #expect(response.status == 200, "serve \(target): \(response.text.prefix(200))")
            outputs.append(("serve \(target)", String(decoding: response.body, as: UTF8.self)))
        }
        return outputs
    }

    @Test(.installsTracer, arguments: [0x5EC2E7 as UInt64, 0xC0FFEE, 0x1D0D0E])
    func noFormOfTheSecretReachesAnyOutput(seed: UInt64) throws {
        let directory = try CICommand.temporaryDirectory()
        let trace = directory.appendingPathComponent("secrets-\(seed).trace").path
        let other = directory.appendingPathComponent("secrets-\(seed)-other.trace").path
        let graph = try SecretGraph.record(seed: seed, at: trace)
        let otherGraph = try SecretGraph.record(seed: seed &+ 1, at: other)
        let forbidden = (graph.secrets + otherGraph.secrets).flatMap(SecretGraph.forms(of:))
        #expect(graph.secrets.count >= 2)

        let bytes = try Data(contentsOf: URL(fileURLWithPath: trace))
        for form in forbidden {
            #expect(bytes.range(of: Data(form.utf8)) == nil, "seed \(seed): the trace holds \(form)")
        }
        // The clear values are still written, and shown.
        for clear in graph.clearValues {
            #expect(bytes.range(of: Data(clear.utf8)) != nil, "seed \(seed): the trace lacks \(clear)")
        }
        #expect(bytes.range(of: Data("‹redacted›".utf8)) != nil)

        let outputs = try Self.outputs(of: trace, other: other, valueNodes: graph.valueNodes, computeds: graph.computeds)
        for (what, text) in outputs {
            for form in forbidden where text.contains(form) {
                Issue.record("seed \(seed): \(what) shows \(form)")
            }
        }
        // Nor the index beside it (its kept model and explanations).
        let index = try Data(contentsOf: URL(fileURLWithPath: trace + ".rindex"))
        for form in forbidden {
            #expect(index.range(of: Data(form.utf8)) == nil, "seed \(seed): the index holds \(form)")
        }
        let shown = outputs.map(\.1).joined()
        for clear in graph.clearValues {
            #expect(shown.contains(clear), "seed \(seed): no output shows \(clear)")
        }
    }
}
