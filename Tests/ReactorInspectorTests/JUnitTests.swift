import Testing
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import ReactorCore
@testable import ReactorInspector

/// Collects the elements of an XML document with a SAX parse.
final class XMLCollector: NSObject, XMLParserDelegate {
    var elements: [(name: String, attributes: [String: String])] = []
    var text = ""
    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
        elements.append((elementName, attributeDict))
    }
    func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

    static func parse(_ xml: String) throws -> XMLCollector {
        let collector = XMLCollector()
        let parser = XMLParser(data: Data(xml.utf8))
        parser.delegate = collector
        let ok = parser.parse()
        #expect(ok, "XML does not parse: \(String(describing: parser.parserError))")
        try #require(ok)
        return collector
    }
}

@Suite struct JUnitTests {
    @Test func oneTestCasePerRuleWithFailures() throws {
        let profile = TraceProfile.build(from: TraceScript.todos(count: 3))
        let budget = try Budget.parse("""
        { "computations": [ { "match": "*", "maxReruns": 2, "maxRerunMilliseconds": 100 } ],
          "actions": [ { "match": "*", "maxRerunsPerAction": 1 } ], "maxFlushMilliseconds": 50, "forbid": ["cycle"] }
        """)
        let xml = BudgetCheck(budget: budget, profile: profile).junitXML(budgetName: "budget.json", traceName: "todos.bin")
        let document = try XMLCollector.parse(xml)
        let testcases = document.elements.filter { $0.name == "testcase" }
        #expect(testcases.map { $0.attributes["name"] } == [
            "computations[0].maxReruns", "computations[0].maxRerunMilliseconds",
            "actions[0].maxRerunsPerAction", "maxFlushMilliseconds", "forbid.cycle",
        ])
        let failures = document.elements.filter { $0.name == "failure" }
        #expect(failures.count == 2)
        #expect(failures[0].attributes["message"]?.contains("measured 3, limit 2") == true)
        let suite = try #require(document.elements.first { $0.name == "testsuite" })
        #expect(suite.attributes["tests"] == "5")
        #expect(suite.attributes["failures"] == "2")
        #expect(document.elements.first?.name == "testsuites")
    }

    @Test func hostileNamesAreEscaped() throws {
        var script = TraceScript()
        let name = "<evil> & \"quotes\" 'x' \u{01}]]>"
        script.add(.nodeCreated(id: 1, kind: .computation, name: name, parent: 0))
        script.add(.rerunBegan(computation: 1, firstRun: true))
        script.add(.rerunEnded(computation: 1))
        script.add(.invalidated(computation: 1, cause: .explicit, source: 0))
        script.add(.rerunBegan(computation: 1, firstRun: false))
        script.add(.rerunEnded(computation: 1), advance: 5)
        let profile = TraceProfile.build(from: script.events)
        let budget = try Budget.parse(#"{ "computations": [ { "match": "*", "maxReruns": 0 } ] }"#)
        let xml = BudgetCheck(budget: budget, profile: profile).junitXML(budgetName: "a&b.json", traceName: "<t>")
        let document = try XMLCollector.parse(xml)
        let failure = try #require(document.elements.first { $0.name == "failure" })
        #expect(failure.attributes["message"]?.contains(#"<evil> & "quotes" 'x' \u{1}]]>"#) == true)
    }
}
