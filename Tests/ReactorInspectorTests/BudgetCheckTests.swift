import ReportAssertions
import Testing
import ReactorCore
import ReactorTrace
@testable import ReactorInspector

@Suite struct BudgetCheckTests {
    let profile = TraceProfile.build(from: TraceScript.todos(count: 5, listNanoseconds: 3_000_000))

    func check(_ json: String) throws -> BudgetCheck {
        BudgetCheck(budget: try Budget.parse(json), profile: profile)
    }

    @Test func withinBudgetExitsZero() throws {
        let result = try check("""
        { "computations": [ { "match": "TodoList*", "maxReruns": 5, "maxTotalMilliseconds": 20, "maxRerunMilliseconds": 4 } ],
          "actions": [ { "match": "*", "maxRerunsPerAction": 3 } ],
          "maxFlushMilliseconds": 16, "forbid": ["runaway", "cycle"] }
        """)
        #expect(result.passed)
        #expect(result.exitCode == 0)
        #expect(result.results.count == 7)
    }

    @Test func maxRerunsViolation() throws {
        let result = try check(#"{ "computations": [ { "match": "*", "maxReruns": 4 } ] }"#)
        #expect(result.exitCode == 1)
        let violation = try #require(result.violations.first)
        #expect(violation.rule == "computations[0].maxReruns")
        #expect(violation.measured == "5")
        #expect(violation.limit == "4")
        #expect(violation.offenders.map(\.name) == ["Footer.count", "TodoList.list", "visibleTodos"])
        #expect(violation.worstOffender == "Footer.count")
        #expect(violation.cause.first == "action TodoStore.addTodo(_:) [\"item 4\"]")
        #expect(violation.violationLine
            == "computations[0].maxReruns: reruns of computations matching \"*\": \"Footer.count\" measured 5, limit 4 (the worst of 3 over the limit)")
    }

    /// A rerun budget's `why:` is the chain most reruns followed, not the latest one: three
    /// `addTodo` calls rerun the list, then one `clear` does.
    @Test func aRerunBudgetShowsTheDominantChain() throws {
        var script = TraceScript()
        script.setUp()
        for index in 0..<3 { script.addTodo("item \(index)") }
        script.add(.actionBegan(store: TraceScript.store, name: "clear()", arguments: ""), advance: 1_000)
        script.add(.changed(dependency: TraceScript.todos))
        script.add(.invalidated(computation: TraceScript.visible, cause: .dependency, source: TraceScript.todos))
        script.add(.flushBegan, advance: 10)
        script.add(.rerunBegan(computation: TraceScript.visible, firstRun: false), advance: 10)
        script.add(.changed(dependency: TraceScript.visibleValue))
        script.add(.invalidated(computation: TraceScript.list, cause: .dependency, source: TraceScript.visibleValue))
        script.add(.rerunEnded(computation: TraceScript.visible), advance: 1_000)
        script.add(.rerunBegan(computation: TraceScript.list, firstRun: false), advance: 10)
        script.add(.rerunEnded(computation: TraceScript.list), advance: 1_000)
        script.add(.flushEnded, advance: 10)
        script.add(.actionEnded(store: TraceScript.store), advance: 10)
        let profile = TraceProfile.build(from: script.events)
        let list = try #require(profile.computations.first { $0.name == "TodoList.list" })
        #expect(list.latestRerunCause.first == "action TodoStore.clear()")
        #expect(list.dominantRerunCause.first == "action TodoStore.addTodo(_:) [\"item 2\"]")
        #expect(list.dominantRerunCount == 3)
        let result = BudgetCheck(budget: try Budget.parse(#"{ "computations": [ { "match": "TodoList.list", "maxReruns": 1 } ] }"#),
                                 profile: profile)
        #expect(result.violations.first?.cause.first == "action TodoStore.addTodo(_:) [\"item 2\"]")
    }

    @Test func timeViolations() throws {
        let result = try check(#"{ "computations": [ { "match": "TodoList.*", "maxTotalMilliseconds": 10, "maxRerunMilliseconds": 2.5 } ] }"#)
        #expect(result.violations.map(\.rule) == ["computations[0].maxTotalMilliseconds", "computations[0].maxRerunMilliseconds"])
        #expect(result.violations.map(\.measured) == ["15 ms", "3 ms"])
        #expect(result.violations[1].limit == "2.5 ms")
        #expect(result.violations[1].cause.last == "autorun TodoList.list reran")
    }

    @Test func actionViolation() throws {
        let result = try check(#"{ "actions": [ { "match": "TodoStore.add*", "maxRerunsPerAction": 2 } ] }"#)
        let violation = try #require(result.violations.first)
        #expect(violation.rule == "actions[0].maxRerunsPerAction")
        #expect(violation.measured == "3")
        #expect(violation.worstOffender == "TodoStore.addTodo(_:)")
        #expect(violation.cause == ["action TodoStore.addTodo(_:) [\"item 0\"]", "reran visibleTodos, TodoList.list, Footer.count",
                                   "15 reruns over 5 invocations"])
        // The bare action name matches too.
        #expect(try !check(#"{ "actions": [ { "match": "addTodo(_:)", "maxRerunsPerAction": 2 } ] }"#).passed)
        #expect(try check(#"{ "actions": [ { "match": "removeTodo*", "maxRerunsPerAction": 0 } ] }"#).passed)
    }

    @Test func flushViolation() throws {
        let result = try check(#"{ "maxFlushMilliseconds": 1 }"#)
        let violation = try #require(result.violations.first)
        #expect(violation.rule == "maxFlushMilliseconds")
        #expect(violation.measured == "3.08 ms")
        #expect(violation.cause.first == "TodoList.list reran 1× for 3 ms")
        #expect(try check(#"{ "maxFlushMilliseconds": 4 }"#).passed)
    }

    @Test(arguments: TraceIssueKind.allCases)
    func forbiddenIssues(kind: TraceIssueKind) throws {
        var script = TraceScript()
        script.setUp()
        script.add(.issue(kind: kind, node: TraceScript.list, message: "something went wrong"))
        let profile = TraceProfile.build(from: script.events)
        let budget = try Budget.parse(#"{ "forbid": ["\#(kind.budgetName)"] }"#)
        let result = BudgetCheck(budget: budget, profile: profile)
        #expect(result.exitCode == 1)
        #expect(result.violations.first?.rule == "forbid.\(kind.budgetName)")
        #expect(result.violations.first?.cause == ["TodoList.list: something went wrong"])
        let other = TraceIssueKind.allCases.first { $0 != kind }!
        #expect(BudgetCheck(budget: try Budget.parse(#"{ "forbid": ["\#(other.budgetName)"] }"#), profile: profile).passed)
    }

    @Test func unmatchedRulePassesAndIsNoted() throws {
        let result = try check(#"{ "computations": [ { "match": "Nothing*", "maxReruns": 0 } ] }"#)
        #expect(result.passed)
        #expect(result.results[0].matched == 0)
        #expect(result.text(budgetName: "b.json", traceName: "t.bin").contains("note: computations[0].maxReruns matched no computation"))
    }

    @Test func textListsViolationsWithTheirCause() throws {
        let result = try check(#"{ "computations": [ { "match": "TodoList.list", "maxReruns": 1 } ], "forbid": ["cycle"] }"#)
        let text = result.text(budgetName: "budget.json", traceName: "todos.bin")
        #expect(text == """
        ✗ computations[0].maxReruns: reruns of computations matching "TodoList.list": "TodoList.list" measured 5, limit 1
            why: action TodoStore.addTodo(_:) ["item 4"] → TodoStore.todos changed → computed visibleTodos invalidated → computed visibleTodos reran → visibleTodos.value changed → autorun TodoList.list invalidated → autorun TodoList.list reran
        todos.bin exceeds budget budget.json: 1 of 2 rules failed

        """)
    }

    @Test func markdownSummaryIsAWellFormedTable() throws {
        let result = try check(#"{ "computations": [ { "match": "TodoList|*", "maxReruns": 1 }, { "match": "*", "maxReruns": 1 } ] }"#)
        let markdown = result.markdown(budgetName: "budget.json", traceName: "todos.bin")
        try MarkdownAssertions.expectWellFormedTables(markdown)
        #expect(markdown.contains("❌ **todos.bin** exceeds budget `budget.json`: 1 of 2 rules failed"))
    }
}
