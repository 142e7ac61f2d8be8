import BuiltProducts
import Foundation
import ReportAssertions
import Testing

/// `state` and `history` end to end on the todos sample recorded with values,
/// and every bad input: one line on stderr, exit status 2.
@Suite struct StateCommandTests {
    static func objects(_ text: String) throws -> [[String: Any]] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
    }

    @Test func stateAfterTheThirdActionHasThreeTodosAndTheFirstFilter() throws {
        let trace = try SampleTrace.todos.get()
        let result = try BuiltProducts.inspect("state", trace.path, "--at", "action:3", "--json")
        #expect(result.status == 0, "\(result.stderr)")
        let objects = try Self.objects(result.stdout)
        let todos = try #require(objects.first { $0["name"] as? String == "TodoStore.todos" })
        let value = try #require(todos["value"] as? String)
        #expect(value.contains("Buy milk") && value.contains("Walk the dog") && value.contains("Write the trace format"))
        #expect(!value.contains("Review the inspector"))
        #expect(todos["kind"] as? String == "property")
        let filter = try #require(objects.first { $0["name"] as? String == "TodoStore.filter" })
        #expect(filter["value"] as? String == "all")
        let list = try #require(objects.first { $0["name"] as? String == "list" })
        #expect(list["value"] is NSNull)
        #expect(Set(list["dependencies"] as? [String] ?? []) == ["TodoStore.todos", "TodoStore.filter"])
        // The computed recomputed in the flush that ended the action: three remain.
        let remaining = try #require(objects.first { $0["name"] as? String == "remainingCount" })
        #expect(remaining["value"] as? String == "3")

        let text = try BuiltProducts.inspect("state", trace.path, "--at", "action:3", "--filter", "TodoStore.")
        #expect(text.status == 0)
        #expect(text.stdout.contains("TodoStore.addTodo(_:) ended at"))
        #expect(text.stdout.contains("TodoStore.filter  all"))
        #expect(!text.stdout.contains("remainingCount"))
    }

    @Test func stateLaterShowsTheLaterFilter() throws {
        let trace = try SampleTrace.todos.get()
        // The 7th action is setVisibilityFilter(.active).
        let result = try BuiltProducts.inspect("state", trace.path, "--at", "action:7", "--filter", "filter", "--json")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Self.objects(result.stdout).map { $0["value"] as? String } == ["active"])
    }

    @Test func historyListsEveryChangeOfTheFilterWithItsAction() throws {
        let trace = try SampleTrace.todos.get()
        let result = try BuiltProducts.inspect("history", trace.path, "TodoStore.filter", "--json")
        #expect(result.status == 0, "\(result.stderr)")
        let objects = try Self.objects(result.stdout)
        #expect(objects.map { $0["value"] as? String } == ["all", "active", "completed", "all", "active"])
        #expect(objects.first?["action"] is NSNull)
        #expect(objects.dropFirst().allSatisfy { $0["action"] as? String == "TodoStore.setVisibilityFilter(_:)" })
        let times = objects.compactMap { $0["timeNanoseconds"] as? UInt64 }
        #expect(times.count == 5 && times == times.sorted())

        let text = try BuiltProducts.inspect("history", trace.path, "TodoStore.filter")
        #expect(text.status == 0)
        #expect(text.stdout.contains("all → active"))
        #expect(text.stdout.contains("TodoStore.setVisibilityFilter(_:)"))
    }

    @Test func whyShowsValuesAtEachStep() throws {
        let trace = try SampleTrace.todos.get()
        let result = try BuiltProducts.inspect("why", trace.path, "countLabel")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(
            "TodoStore.todos changed: [] → [todos.Todo(id: 1, text: \"Buy milk\", done: false)]"))
        #expect(result.stdout.contains("computed remainingCount recomputed to a new value: 0 → 1"))
    }

    @Test func graphAtAnActionDrawsThatMomentsCountsAndValues() throws {
        let trace = try SampleTrace.todos.get()
        let result = try BuiltProducts.inspect("graph", trace.path, "--at", "action:3", "--format", "dot", "-o", "-")
        #expect(result.status == 0, "\(result.stderr)")
        // Three addTodo actions: list reran three times by then (it reruns many more by the end).
        #expect(result.stdout.contains("label=\"list\\n3 reruns\""))
        #expect(result.stdout.contains("label=\"remainingCount\\n3 reruns\\n= 3\""))
        #expect(result.stdout.contains("label=\"filter\\n= all\""))
        #expect(result.stdout.contains("value: [todos.Todo(id: 1, text: \\\"Buy milk\\\""))
        let whole = try BuiltProducts.inspect("graph", trace.path, "--format", "dot", "-o", "-")
        #expect(!whole.stdout.contains("label=\"list\\n3 reruns\""))
        #expect(!whole.stdout.contains("= all"))
    }

    @Test func theHTMLReportHasAnActionTimelineWithWhatEachActionChanged() throws {
        let trace = try SampleTrace.todos.get()
        let out = SampleTrace.directory.appendingPathComponent("todos-timeline.html")
        let result = try BuiltProducts.inspect("report", trace.path, "-o", out.path)
        #expect(result.status == 0, "\(result.stderr)")
        let html = try String(contentsOf: out, encoding: .utf8)
        HTMLAssertions.expectBalanced(html)
        HTMLAssertions.expectSelfContained(html)
        #expect(html.contains("<h2>Action timeline</h2>"))
        #expect(html.components(separatedBy: "<details class=\"action\">").count - 1 == 14)
        // The 7th action set the filter from all to active (descriptions are escaped).
        let seventh = try #require(html.components(separatedBy: "<details class=\"action\">").dropFirst(7).first)
        #expect(seventh.contains("#7 <code>TodoStore.setVisibilityFilter(_:)</code>"))
        #expect(seventh.contains("<tr><td><code>TodoStore.filter</code></td><td><code class=\"args\">all</code></td><td><code class=\"args\">active</code></td></tr>"))
        #expect(seventh.contains("<th>Reruns up to here</th>"))
        #expect(seventh.contains("<tr><td><code>list</code></td><td class=\"num\">7</td></tr>"))
        #expect(html.contains("text: &quot;Buy milk&quot;"))

        let counter = try SampleTrace.counter.get()
        let plainOut = SampleTrace.directory.appendingPathComponent("counter-timeline.html")
        _ = try BuiltProducts.inspect("report", counter.path, "-o", plainOut.path)
        let plain = try String(contentsOf: plainOut, encoding: .utf8)
        #expect(!plain.contains("<h2>Action timeline</h2>"))  // the counter has no store actions
    }

    static let badInputs: [(arguments: [String], message: String)] = [
        (["state", "{todos}", "--at", "9999s"], "is past the end of the trace"),
        (["state", "{todos}", "--at", "action:0"], "actions count from 1"),
        (["state", "{todos}", "--at", "action:999"], "the trace has 14 actions"),
        (["state", "{todos}", "--at", "yesterday"], "is neither a time"),
        (["state", "{todos}", "--at", "action:3", "--filter", "NoSuchNode"], "no node named 'NoSuchNode'"),
        (["history", "{todos}", "NoSuchNode"], "no node named 'NoSuchNode'"),
        (["state", "{counter}", "--at", "action:1"], "this trace has no values: record with REACTOR_TRACE_VALUES=N"),
        (["history", "{counter}", "CounterViewModel.counter"], "this trace has no values: record with REACTOR_TRACE_VALUES=N"),
    ]

    @Test(arguments: badInputs.indices)
    func badInputIsOneLineAndStatusTwo(_ position: Int) throws {
        let (arguments, message) = Self.badInputs[position]
        let todos = try SampleTrace.todos.get().path, counter = try SampleTrace.counter.get().path
        let resolved = arguments.map { $0 == "{todos}" ? todos : $0 == "{counter}" ? counter : $0 }
        let result = try BuiltProducts.run("reactor-inspect", resolved)
        #expect(result.status == 2, "\(resolved): \(result.stderr)")
        #expect(result.stdout.isEmpty)
        let lines = result.stderr.split(separator: "\n").filter { !$0.hasPrefix("Usage:") && !$0.contains("--help") }
        #expect(lines.count == 1, "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }
}
