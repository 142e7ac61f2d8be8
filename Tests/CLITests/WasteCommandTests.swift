import BuiltProducts
import Foundation
import ReactorTrace
import Testing

/// `waste` end to end: a recorded trace with ten equal writes of a value, the samples, bad input.
@Suite struct WasteCommandTests {
    /// `filterLabel` reads `Filters.filter`. `setFilter(_:)` writes an equal
    /// description ten times (a non-`Equatable` value: each write is a change),
    /// then a different one once; values recorded, as the runtime records them.
    static let trace: Result<String, any Error> = Result {
        let path = try CICommand.temporaryDirectory().appendingPathComponent("equal-writes.trace").path
        let recorder = try TraceRecorder(path: path, options: TraceRecorder.Options(values: .described(maxLength: 200)))
        let store: UInt64 = 1, filter: UInt64 = 2, label: UInt64 = 3
        recorder.nodeCreated(store, kind: .store, name: "Filters", parent: 0)
        recorder.nodeCreated(filter, kind: .reactiveValue, name: "Filters.filter", parent: store)
        recorder.value(filter, description: "Filter(text: \"all\")")
        recorder.nodeCreated(label, kind: .computation, name: "filterLabel", parent: 0)
        func run(first: Bool = false) {
            recorder.rerunBegan(computation: label, firstRun: first)
            recorder.depend(computation: label, dependency: filter)
            recorder.rerunEnded(computation: label)
        }
        run(first: true)
        for text in Array(repeating: "all", count: 10) + ["active"] {
            recorder.actionBegan(store: store, name: "setFilter(_:)", arguments: "Filter(text: \"\(text)\")")
            recorder.value(filter, description: "Filter(text: \"\(text)\")")
            recorder.changed(dependency: filter)
            recorder.invalidated(computation: label, cause: .dependency, source: filter)
            recorder.flushBegan()
            run()
            recorder.flushEnded()
            recorder.actionEnded(store: store)
        }
        _ = recorder.stop()
        return path
    }

    @Test func tenEqualWritesAreTheTenUnneededRerunsWithTheirWrite() throws {
        let path = try Self.trace.get()
        let entries = try #require(try AgreementTests.json("waste", path, "--json") as? [[String: Any]])
        #expect(entries.count == 1)
        let entry = try #require(entries.first)
        #expect(entry["name"] as? String == "filterLabel")
        #expect(entry["reruns"] as? Int == 11)
        #expect(entry["unneededReruns"] as? Int == 10)
        #expect((entry["unneededNanoseconds"] as? Int ?? 0) > 0)
        let writes = try #require(entry["writes"] as? [[String: Any]])
        #expect(writes.count == 1)
        #expect(writes.first?["node"] as? String == "Filters.filter")
        #expect(writes.first?["action"] as? String == "Filters.setFilter(_:)")
        #expect(writes.first?["reruns"] as? Int == 10)

        let text = try BuiltProducts.inspect("waste", path)
        #expect(text.status == 0)
        #expect(text.stdout.contains("Unneeded reruns (10 of 11 reruns"))
        #expect(text.stdout.contains("filterLabel: make Filters.filter's type Equatable"))
        #expect(text.stdout.contains("Every rerun was judged (11 reruns)."))
    }

    @Test func theReportShowsTheUnneededRerunsAndTheirWrite() throws {
        let path = try Self.trace.get()
        let folder = try CICommand.temporaryDirectory()
        let html = folder.appendingPathComponent("equal-writes.html").path
        let markdown = folder.appendingPathComponent("equal-writes.md").path
        for out in [html, markdown] {
            let result = try BuiltProducts.inspect("report", path, "-o", out)
            #expect(result.status == 0, "\(result.stderr)")
        }
        let page = try String(contentsOfFile: html, encoding: .utf8)
        #expect(page.contains("<h2>Unneeded reruns</h2>"))
        #expect(page.contains("10 of 11 reruns read only values"))
        #expect(page.contains("<code>Filters.filter</code> in <code>Filters.setFilter(_:)</code>"))
        #expect(try String(contentsOfFile: markdown, encoding: .utf8).contains("**10 unneeded reruns**"))
        let json = try #require(try AgreementTests.json("report", path, "--format", "json", "-o", "-") as? [String: Any])
        #expect(json["unneededReruns"] as? Int == 10)
        #expect(json["wasteJudged"] as? Bool == true)
        #expect((json["waste"] as? [[String: Any]])?.first?["name"] as? String == "filterLabel")
    }

    @Test func theTodosSampleHasNoUnneededRerun() throws {
        let trace = try SampleTrace.todos.get()
        let entries = try #require(try AgreementTests.json("waste", trace.path, "--json") as? [[String: Any]])
        for entry in entries {
            #expect(entry["unneededReruns"] as? Int == 0, "\(entry)")
            for key in ["name", "unneededNanoseconds", "writes", "fix", "equalResults"] { #expect(entry[key] != nil) }
        }
    }

    @Test func withoutValuesItSaysWhatCannotBeDecided() throws {
        let trace = try SampleTrace.counter.get()
        let result = try BuiltProducts.inspect("waste", trace.path)
        #expect(result.status == 0)
        #expect(result.stdout.contains("recorded without values"))
        let json = try BuiltProducts.inspect("waste", trace.path, "--json")
        #expect(json.status == 0)
        #expect(json.stderrLines.count == 1)
        #expect(json.stderr.contains("cannot be decided"))
    }

    @Test func badInputIsOneLine() throws {
        let missing = try BuiltProducts.inspect("waste", "/nonexistent/x.trace")
        #expect(missing.status == 2)
        #expect(missing.stderrLines.count == 1)
    }
}
