import BuiltProducts
import Foundation
import ReportAssertions
import Testing
#if canImport(FoundationXML)
import FoundationXML
#endif

@Suite struct CheckCommandTests {
    func budget(_ json: String) throws -> String {
        let url = try CICommand.temporaryDirectory().appendingPathComponent("budget.json")
        try json.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    @Test func withinBudgetExitsZero() throws {
        let traces = try SampleTraces.load()
        let result = try BuiltProducts.inspect("check", traces.counter, "--budget",
                                           try budget(#"{ "computations": [ { "match": "label", "maxReruns": 100 } ], "forbid": ["runaway"] }"#))
        #expect(result.status == 0)
        #expect(result.stdout.contains("counter.trace is within budget budget.json: 2 rules passed"))
        #expect(result.stderr.isEmpty)
    }

    @Test func exceededBudgetExitsOneWithTheCause() throws {
        let traces = try SampleTraces.load()
        let result = try BuiltProducts.inspect("check", traces.counter, "--budget",
                                           try budget(#"{ "computations": [ { "match": "lab*", "maxReruns": 50 } ] }"#))
        #expect(result.status == 1)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        // The counter sample counts 100 label reruns itself.
        #expect(lines[0] == #"✗ computations[0].maxReruns: reruns of computations matching "lab*": "label" measured 100, limit 50"#)
        #expect(lines[1] == "    why: CounterViewModel.counter changed → autorun label invalidated → autorun label reran")
        #expect(lines.last == "counter.trace exceeds budget budget.json: 1 of 1 rules failed")
    }

    @Test func junitReportParsesWithOneCasePerRule() throws {
        let traces = try SampleTraces.load()
        let out = try CICommand.temporaryDirectory().appendingPathComponent("budget.xml")
        let result = try BuiltProducts.inspect(
            "check", traces.stressBase, "--junit", out.path, "--budget",
            try budget(#"{ "computations": [ { "match": "effect*", "maxReruns": 1, "maxTotalMilliseconds": 100000 } ], "maxFlushMilliseconds": 100000, "forbid": ["cycle", "runaway"] }"#))
        #expect(result.status == 1)
        let parser = XMLParser(data: try Data(contentsOf: out))
        let collector = CaseCollector()
        parser.delegate = collector
        #expect(parser.parse(), "\(String(describing: parser.parserError))")
        #expect(collector.cases == ["computations[0].maxReruns", "computations[0].maxTotalMilliseconds",
                                    "maxFlushMilliseconds", "forbid.cycle", "forbid.runaway"])
        #expect(collector.failures == 1)
    }

    /// `--junit -`: standard output is the XML document and nothing else (the verdict goes to standard error).
    @Test func junitToStandardOutputIsTheXMLAlone() throws {
        let traces = try SampleTraces.load()
        let result = try BuiltProducts.inspect("check", traces.counter, "--junit", "-", "--budget",
                                               try budget(#"{ "computations": [ { "match": "lab*", "maxReruns": 50 } ] }"#))
        #expect(result.status == 1)
        let parser = XMLParser(data: Data(result.stdout.utf8))
        let collector = CaseCollector()
        parser.delegate = collector
        #expect(parser.parse(), "\(String(describing: parser.parserError)): \(result.stdout.prefix(200))")
        #expect(collector.cases == ["computations[0].maxReruns"])
        #expect(result.stdout.hasPrefix("<?xml") && result.stdout.hasSuffix("</testsuites>\n"))
        #expect(result.stderr.hasSuffix("counter.trace exceeds budget budget.json: 1 of 1 rules failed\n"))
        let both = try BuiltProducts.inspect("check", traces.counter, "--junit", "-", "--json", "--budget", try budget("{}"))
        #expect(both.status == 2)
        #expect(both.stderrLines.first == "reactor-inspect: error: --json and --junit - would both write to standard output")
    }

    /// A report that cannot be written is one line and status 2, with no verdict printed before or after it.
    @Test func aJUnitWriteErrorIsOneLineWithoutAVerdict() throws {
        let traces = try SampleTraces.load()
        let result = try BuiltProducts.inspect("check", traces.counter, "--junit", "/dev/full", "--budget",
                                               try budget(#"{ "computations": [ { "match": "lab*", "maxReruns": 50 } ] }"#))
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty, "\(result.stdout)")
        #expect(result.stderrLines == ["reactor-inspect: error: cannot write /dev/full: No space left on device"])
    }

    @Test func appendsAMarkdownStepSummary() throws {
        let traces = try SampleTraces.load()
        let summary = try CICommand.temporaryDirectory().appendingPathComponent("summary.md")
        try "# Earlier step\n".write(to: summary, atomically: true, encoding: .utf8)
        let result = try BuiltProducts.inspect("check", traces.counter, "--budget",
                                           try budget(#"{ "computations": [ { "match": "*", "maxReruns": 10 } ] }"#),
                                           environment: ["GITHUB_STEP_SUMMARY": summary.path])
        #expect(result.status == 1)
        let text = try String(contentsOf: summary, encoding: .utf8)
        #expect(text.hasPrefix("# Earlier step\n### Reactor budget"))
        #expect(text.contains("| ❌ | `computations[0].maxReruns` | 10 | 100 | `label` |"))
        try MarkdownAssertions.expectWellFormedTables(text)
    }

    @Test func malformedBudgetsExitTwoWithOneLine() throws {
        let traces = try SampleTraces.load()
        let cases: [(String, String)] = [
            ("{\n  \"computations\": [ { \"match\": \"*\", \"maxRerun\": 3 } ]\n}",
             "unknown key \"computations[0].maxRerun\" at line 2, column 37 (did you mean \"maxReruns\"?)"),
            ("{ \"maxFlushMilliseconds\": 16,, }", "budget is not valid JSON at line 1, column 30"),
            (#"{ "maxFlushMilliseconds": "16" }"#, "invalid value for \"maxFlushMilliseconds\" at line 1, column 27"),
            (#"{ "forbid": ["loops"] }"#, "unknown issue kind \"loops\""),
            ("", "budget is not valid JSON at line 1, column 1: empty document"),
        ]
        for (json, expected) in cases {
            let path = try budget(json)
            let result = try BuiltProducts.inspect("check", traces.counter, "--budget", path)
            #expect(result.status == 2, "\(json)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
            #expect(result.stderr.hasPrefix("reactor-inspect: error: \(path): "))
            #expect(result.stderr.contains(expected), "\(result.stderr)")
        }
        let missing = try BuiltProducts.inspect("check", traces.counter, "--budget", "/nonexistent/budget.json")
        #expect(missing.status == 2)
        #expect(missing.stderr == "reactor-inspect: error: /nonexistent/budget.json: no such budget file\n")
    }
}

/// Collects JUnit test case names and counts failures.
final class CaseCollector: NSObject, XMLParserDelegate {
    var cases: [String] = []
    var failures = 0
    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
        if elementName == "testcase" { cases.append(attributeDict["name"] ?? "") }
        if elementName == "failure" { failures += 1 }
    }
}

@Suite struct TodosBudgetTests {
    /// Records the todos sample (store actions, a computed, two autoruns) once.
    static let recorded: Swift.Result<(path: String, reruns: [String: Int], actions: Int), any Error> = Swift.Result {
        let path = try CICommand.temporaryDirectory().appendingPathComponent("todos.trace").path
        let result = try BuiltProducts.run("todos", ["--trace", path, "--trace-values", "200"])
        let line = try #require(result.stdout.split(separator: "\n").last)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        return (path, object["reruns"] as? [String: Int] ?? [:], object["actions"] as? Int ?? -1)
    }

    @Test func everyRerunIsChargedToTheActionThatCausedIt() throws {
        let todos = try Self.recorded.get()
        let result = try BuiltProducts.inspect("diff", todos.path, todos.path, "--json")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let actions = try #require((object["diff"] as? [String: Any])?["actions"] as? [[String: Any]])
        let heads = actions.compactMap { $0["head"] as? [String: Any] }
        // The sample counts its own reruns and actions; the trace agrees.
        #expect(heads.reduce(0) { $0 + ($1["count"] as? Int ?? 0) } == todos.actions)
        #expect(heads.reduce(0) { $0 + ($1["reruns"] as? Int ?? 0) } == todos.reruns.values.reduce(0, +))
    }

    @Test func actionRuleOnTheTodosSample() throws {
        let todos = try Self.recorded.get()
        let budget = try CICommand.temporaryDirectory().appendingPathComponent("budget.json")
        try #"{ "actions": [ { "match": "TodoStore.add*", "maxRerunsPerAction": 2 } ], "computations": [ { "match": "list", "maxReruns": 14 } ] }"#
            .write(to: budget, atomically: true, encoding: .utf8)
        let result = try BuiltProducts.inspect("check", todos.path, "--budget", budget.path)
        #expect(result.status == 1)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines[0].hasPrefix(#"✗ actions[0].maxRerunsPerAction: reruns caused by one invocation of actions matching "TodoStore.add*": "TodoStore.addTodo(_:)" measured 3, limit 2"#))
        #expect(lines[1].hasPrefix(#"    why: action TodoStore.addTodo(_:) [""#))
        #expect(lines.last == "todos.trace exceeds budget budget.json: 1 of 2 rules failed")
    }
}
