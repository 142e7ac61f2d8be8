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

extension SiteViewTests {
    @Test func whyGivesEachActionItsCallSite() throws {
        let trace = try SampleTrace.todos.get()
        let text = try BuiltProducts.inspect("why", trace.path, "list")
        #expect(text.status == 0, "\(text.stderr)")
        let rerun = try #require(text.stdout.split(separator: "\n").first { $0.contains("action TodoStore.addTodo(_:) \"Buy milk\"") })
        let site = try #require(rerun.firstMatch(of: #/"Buy milk" at (todos/main\.swift:[0-9]+) → /#)?.1)
        // Grouped causes leave the site out, so calls from different places still count together.
        #expect(text.stdout.contains("5×  action TodoStore.addTodo(_:) → TodoStore.todos changed"))

        let json = try BuiltProducts.inspect("why", trace.path, "list", "--json")
        #expect(json.status == 0, "\(json.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let entries = try #require(object["entries"] as? [[String: Any]])
        let first = try #require(entries.first { $0["event"] as? String == "first-run" })
        #expect(first["actionSite"] == nil)
        let added = try #require(entries.first { ($0["chain"] as? [String])?.first?.contains("\"Buy milk\"") == true })
        #expect(added["actionSite"] as? String == String(site))
        #expect((added["chain"] as? [String])?.first == "action TodoStore.addTodo(_:) \"Buy milk\" at \(site)")
        let toggled = try #require(entries.first { ($0["chain"] as? [String])?.first?.hasPrefix("action TodoStore.toggleTodo(_:)") == true })
        let toggleSite = try #require(toggled["actionSite"] as? String)
        #expect(Self.isTodosSite(toggleSite) && toggleSite != String(site))
    }
}
