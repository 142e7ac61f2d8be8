import BuiltProducts
import Foundation
import ReportAssertions
import Testing

@Suite struct ReportCommandTests {
    @Test func htmlReportIsSelfContainedAndBalanced() throws {
        let traces = try SampleTraces.load()
        let out = try CICommand.temporaryDirectory().appendingPathComponent("stress.html")
        let result = try BuiltProducts.inspect("report", traces.stressBase, "-o", out.path)
        #expect(result.status == 0, "\(result.stderr)")
        let html = try String(contentsOf: out, encoding: .utf8)
        HTMLAssertions.expectBalanced(html)
        HTMLAssertions.expectSelfContained(html)
        #expect(html.contains("<h2>Hot computations</h2>"))
        #expect(html.contains("aria-label=\"Histogram of rerun durations\""))
        #expect(html.contains("aria-label=\"Timeline of flushes and actions\""))
        // The Graphviz graph is inlined, with the five hottest computations marked.
        #expect(html.contains("<h2>Dependency graph</h2>"))
        #expect(html.components(separatedBy: "class=\"node hot\"").count - 1 == 5)
        let total = traces.stressBaseReruns.values.reduce(0, +)
        #expect(html.contains("<div class=\"value\">\(total)</div>"))
    }

    @Test func markdownReportIsWellFormed() throws {
        let traces = try SampleTraces.load()
        let result = try BuiltProducts.inspect("report", traces.counter, "--format", "md", "-o", "-")
        #expect(result.status == 0)
        try MarkdownAssertions.expectWellFormedTables(result.stdout)
        // The counter sample records sites, so the name cell carries `label`'s creation site.
        #expect(result.stdout.contains(/\| `label` \(`counter\/main\.swift:[0-9]+`\) \| autorun \| 101 \| 100 \|/))
    }

    @Test func unknownExtensionIsBadInput() throws {
        let traces = try SampleTraces.load()
        let result = try BuiltProducts.inspect("report", traces.counter, "-o", "/tmp/report.txt")
        #expect(result.status == 2)
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(result.stderr.contains("use a .html, .md or .json name"))
    }
}
