import Foundation
import Testing
import ReactorCore
@testable import ReactorInspector

@Suite struct BudgetParsingTests {
    @Test func parsesTheDocumentedShape() throws {
        let budget = try Budget.parse("""
        { "computations": [ { "match": "TodoList*", "maxReruns": 50, "maxTotalMilliseconds": 20, "maxRerunMilliseconds": 2 } ],
          "actions":      [ { "match": "*", "maxRerunsPerAction": 5 } ],
          "maxFlushMilliseconds": 16,
          "forbid": ["runaway", "uncaughtError", "writeOutsideAction", "cycle"] }
        """)
        #expect(budget.computations.count == 1)
        #expect(budget.computations[0].match.pattern == "TodoList*")
        #expect(budget.computations[0].maxReruns == 50)
        #expect(budget.computations[0].maxTotalMilliseconds == 20)
        #expect(budget.computations[0].maxRerunMilliseconds == 2)
        #expect(budget.actions[0].maxRerunsPerAction == 5)
        #expect(budget.maxFlushMilliseconds == 16)
        #expect(budget.forbid == [.runaway, .uncaughtError, .writeOutsideAction, .cycle])
    }

    @Test func theProfilingExampleBudgetParses() throws {
        // Examples/ProfilingInCI/run.sh (the README's walkthrough) checks traces against it.
        let root = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOf: root.appending(path: "Examples/ProfilingInCI/budget.json"), encoding: .utf8)
        let budget = try Budget.parse(text)
        #expect(budget.computations.map(\.match.pattern) == ["footer", "*"])
        #expect(budget.actions.map(\.match.pattern) == ["TodoStore.rename*"])
        #expect(budget.forbid.count == 4)
    }

    @Test func emptyObjectIsAnEmptyBudget() throws {
        #expect(try Budget.parse("{}") == Budget())
    }

    @Test func unknownKeyNamesItsPathAndPosition() {
        let text = """
        {
          "computations": [
            { "match": "*", "maxRerun": 3 }
          ]
        }
        """
        #expect(throws: BudgetError.unknownKey(path: "computations[0].maxRerun",
                                               position: .init(line: 3, column: 21), suggestion: "maxReruns")) {
            try Budget.parse(text)
        }
        do {
            _ = try Budget.parse(text)
        } catch {
            #expect(error.description == "unknown key \"computations[0].maxRerun\" at line 3, column 21 (did you mean \"maxReruns\"?)")
        }
    }

    @Test func unknownTopLevelKey() {
        #expect(throws: BudgetError.unknownKey(path: "maxFlushMs", position: .init(line: 1, column: 3),
                                               suggestion: "maxFlushMilliseconds")) {
            try Budget.parse(#"{ "maxFlushMs": 3 }"#)
        }
        #expect(throws: BudgetError.unknownKey(path: "limits", position: .init(line: 1, column: 3), suggestion: nil)) {
            try Budget.parse(#"{ "limits": 3 }"#)
        }
    }

    @Test func syntaxErrorHasLineAndColumn() {
        let text = "{\n  \"maxFlushMilliseconds\": 16\n  \"forbid\": []\n}"
        #expect(throws: BudgetError.syntax(JSONSyntaxError("expected ',' or '}' after an object member, found '\"'",
                                                           at: .init(line: 3, column: 3)))) {
            try Budget.parse(text)
        }
    }

    @Test(arguments: [
        ("", 1, 1),
        ("{", 1, 2),
        ("{\"a\" 1}", 1, 6),
        ("[1,]", 1, 4),
        ("{\"a\": tru}", 1, 7),
        ("{\"a\": 01}", 1, 7),
        ("{\"a\": \"x}", 1, 7),
        ("{} {}", 1, 4),
        ("{\"a\": 1, \"a\": 2}", 1, 10),
        ("\n\n   @", 3, 4),
    ])
    func syntaxErrors(text: String, line: Int, column: Int) {
        do {
            _ = try PositionedJSONParser.parse(text)
            Issue.record("\(text) parsed")
        } catch {
            #expect(error.position == .init(line: line, column: column), "\(error)")
        }
    }

    @Test func parserHandlesEscapesAndNumbers() throws {
        let value = try PositionedJSONParser.parse(#"{"s": "a\"b\\c\u00e9\ud83d\ude00\n", "n": -12.5e2, "z": 0, "t": [true, false, null]}"#)
        guard case .object(let members) = value.value else { Issue.record("not an object"); return }
        #expect(members[0].value.value == .string("a\"b\\cé😀\n"))
        #expect(members[1].value.value == .number(-1250))
        #expect(members[2].value.value == .number(0))
        #expect(members[3].value.value == .array([
            PositionedJSON(.bool(true), at: .init(line: 1, column: 66)),
            PositionedJSON(.bool(false), at: .init(line: 1, column: 72)),
            PositionedJSON(.null, at: .init(line: 1, column: 79)),
        ]))
    }

    @Test func wrongTypes() {
        #expect(throws: BudgetError.invalidValue(path: "computations", position: .init(line: 1, column: 19),
                                                 message: "expected an array, found object")) {
            try Budget.parse(#"{ "computations": {} }"#)
        }
        #expect(throws: BudgetError.invalidValue(path: "computations[0].maxReruns", position: .init(line: 1, column: 50),
                                                 message: "expected a whole number, found string")) {
            try Budget.parse(#"{ "computations": [ { "match": "*", "maxReruns": "50" } ] }"#)
        }
        #expect(throws: BudgetError.invalidValue(path: "computations[0].maxReruns", position: .init(line: 1, column: 50),
                                                 message: "expected a whole number from 0 to 2147483647, found 2.5")) {
            try Budget.parse(#"{ "computations": [ { "match": "*", "maxReruns": 2.5 } ] }"#)
        }
        #expect(throws: BudgetError.invalidValue(path: "maxFlushMilliseconds", position: .init(line: 1, column: 27),
                                                 message: "expected a non-negative number, found -1.0")) {
            try Budget.parse(#"{ "maxFlushMilliseconds": -1 }"#)
        }
        #expect(throws: BudgetError.invalidValue(path: "budget", position: .init(line: 1, column: 1),
                                                 message: "expected an object, found array")) {
            try Budget.parse("[]")
        }
    }

    @Test func missingMatchAndMissingLimits() {
        #expect(throws: BudgetError.missingKey(path: "computations[0].match", position: .init(line: 1, column: 21))) {
            try Budget.parse(#"{ "computations": [ { "maxReruns": 1 } ] }"#)
        }
        #expect(throws: BudgetError.missingKey(path: "actions[0].maxRerunsPerAction", position: .init(line: 1, column: 16))) {
            try Budget.parse(#"{ "actions": [ { "match": "*" } ] }"#)
        }
        #expect(throws: BudgetError.self) {
            try Budget.parse(#"{ "computations": [ { "match": "*" } ] }"#)
        }
    }

    @Test func unknownIssueKindAndBadGlob() {
        #expect(throws: BudgetError.invalidValue(
            path: "forbid[1]", position: .init(line: 1, column: 23),
            message: "unknown issue kind \"loops\" (one of: nestedFlush, flushInsideComputation, uncaughtError, runaway, cycle, writeOutsideAction, misuse, lockWait)")) {
            try Budget.parse(#"{ "forbid": ["cycle", "loops"] }"#)
        }
        #expect(throws: BudgetError.invalidValue(path: "actions[0].match", position: .init(line: 1, column: 27),
                                                 message: "invalid pattern \"add\\\": trailing '\\' escapes nothing")) {
            try Budget.parse(#"{ "actions": [ { "match": "add\\", "maxRerunsPerAction": 1 } ] }"#)
        }
    }
}
