import BuiltProducts
import Foundation
import Testing

/// The creation sites the todos sample records, as `hot`, `why` and `graph` show them.
@Suite struct SiteViewTests {
    /// A `todos/main.swift:<line>` site, as `#fileID:#line` gives it.
    private static func isTodosSite(_ site: String) -> Bool {
        site.wholeMatch(of: /todos\/main\.swift:[0-9]+/) != nil
    }

    /// The site `hot --json` gives the `list` autorun.
    private func listSite() throws -> String {
        let trace = try SampleTrace.todos.get()
        let result = try BuiltProducts.inspect("hot", trace.path, "--json", "--top", "100000")
        #expect(result.status == 0, "\(result.stderr)")
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        let list = try #require(entries.first { $0["name"] as? String == "list" })
        let site = try #require(list["site"] as? String)
        #expect(Self.isTodosSite(site), "\(site)")
        return site
    }

    @Test func hotShowsEachComputationsSite() throws {
        let site = try listSite()
        let trace = try SampleTrace.todos.get()
        let result = try BuiltProducts.inspect("hot", trace.path)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.contains { $0.contains("site") && $0.contains("top causes") })
        #expect(lines.contains { $0.trimmingCharacters(in: .whitespaces).hasPrefix("list ") && $0.hasSuffix(site) })
    }

    @Test func whyNamesTheSiteInItsHeaderAndJSON() throws {
        let site = try listSite()
        let trace = try SampleTrace.todos.get()
        let text = try BuiltProducts.inspect("why", trace.path, "list")
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.hasPrefix("autorun list (\(site)):"))
        let json = try BuiltProducts.inspect("why", trace.path, "list", "--json")
        #expect(json.status == 0, "\(json.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["site"] as? String == site)
    }

    @Test func graphTooltipsCarryTheSite() throws {
        let site = try listSite()
        let trace = try SampleTrace.todos.get()
        let result = try BuiltProducts.inspect("graph", trace.path, "--format", "svg", "-o", "-")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("xlink:title=\"list (autorun)&#10;created at \(site)&#10;"))
    }
}

extension SiteViewTests {
    @Test func reportsListTheSiteBesideEachComputation() throws {
        let site = try listSite()
        let trace = try SampleTrace.todos.get()
        let markdown = try BuiltProducts.inspect("report", trace.path, "--format", "md", "-o", "-")
        #expect(markdown.status == 0, "\(markdown.stderr)")
        #expect(markdown.stdout.contains("| `list` (`\(site)`) | autorun |"))
        let html = try BuiltProducts.inspect("report", trace.path, "--format", "html", "-o", "-")
        #expect(html.status == 0, "\(html.stderr)")
        #expect(html.stdout.contains("<code>list</code> <span class=\"muted site\">\(site)</span>"))
    }
}
