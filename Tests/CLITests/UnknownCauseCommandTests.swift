import BuiltProducts
import Foundation
import ReactorTrace
import Testing

/// A rerun with no invalidation recorded before it has an unknown cause in
/// every command (docs/METRICS.md, "Causes"): no action is charged with it,
/// not even the one open around the flush that reran it.
@Suite struct UnknownCauseCommandTests {
    /// `show` reads `Store.value`. `set()` writes it (recorded: charged to
    /// `set()`); then `flushAll()` flushes and `show` reruns with no
    /// invalidation recorded before it (as when the recording began after it).
    static let trace: Result<String, any Error> = Result {
        let path = try CICommand.temporaryDirectory().appendingPathComponent("unknown-cause.trace").path
        let recorder = try TraceRecorder(path: path)
        let store: UInt64 = 1, value: UInt64 = 2, show: UInt64 = 3
        recorder.nodeCreated(store, kind: .store, name: "Store", parent: 0)
        recorder.nodeCreated(value, kind: .reactiveValue, name: "Store.value", parent: store)
        recorder.nodeCreated(show, kind: .computation, name: "show", parent: 0)
        func rerun(first: Bool = false) {
            recorder.rerunBegan(computation: show, firstRun: first)
            recorder.depend(computation: show, dependency: value)
            recorder.rerunEnded(computation: show)
        }
        rerun(first: true)
        recorder.actionBegan(store: store, name: "set()", arguments: "")
        recorder.changed(dependency: value)
        recorder.invalidated(computation: show, cause: .dependency, source: value)
        recorder.flushBegan()
        rerun()
        recorder.flushEnded()
        recorder.actionEnded(store: store)
        recorder.actionBegan(store: store, name: "flushAll()", arguments: "")
        recorder.flushBegan()
        rerun()
        recorder.flushEnded()
        recorder.actionEnded(store: store)
        _ = recorder.stop()
        return path
    }

    private static func actions(_ document: Any, _ key: String) throws -> [String: Int] {
        let entries = try #require((document as? [String: Any])?["actions"] as? [[String: Any]])
        return Dictionary(uniqueKeysWithValues: try entries.map {
            (try #require($0["name"] as? String), try #require($0[key] as? Int))
        })
    }

    @Test func noCommandChargesTheOpenAction() throws {
        let path = try Self.trace.get()
        let expected = ["Store.set()": 1, "Store.flushAll()": 0]
        #expect(try Self.actions(AgreementTests.json("summary", path, "--json"), "runsCaused") == expected)
        #expect(try Self.actions(AgreementTests.json("report", path, "--format", "json", "-o", "-"), "rerunsCaused")
            == expected)

        let why = try #require(try AgreementTests.json("why", path, "show", "--json") as? [String: Any])
        let chains = try #require(why["entries"] as? [[String: Any]])
            .filter { $0["event"] as? String == "rerun" }.compactMap { ($0["chain"] as? [String])?.first }
        #expect(chains == ["action Store.set()", "(cause not in the trace)"])

        let markdown = try BuiltProducts.run("reactor-inspect", ["report", path, "--format", "md", "-o", "-"])
        #expect(markdown.status == 0)
        #expect(markdown.stdout.contains("reran last:** (cause not in the trace) → autorun show reran"))

        // check's per-call budget: flushAll() caused nothing, set() one rerun.
        let directory = try CICommand.temporaryDirectory()
        for (action, status) in [("Store.flushAll()", Int32(0)), ("Store.set()", Int32(1))] {
            let budget = directory.appendingPathComponent("budget-\(status).json")
            try Data(#"{"actions": [{"match": "\#(action)", "maxRerunsPerAction": 0}]}"#.utf8).write(to: budget)
            let check = try BuiltProducts.run("reactor-inspect", ["check", path, "--budget", budget.path])
            #expect(check.status == status, "\(action): \(check.stdout)\(check.stderr)")
        }
    }
}
