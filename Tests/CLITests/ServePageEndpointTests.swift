import BuiltProducts
import Foundation
import ReactorInspector
import Testing

/// The endpoints behind the page's views: the graph at a moment, the
/// timeline, and replay's own lines.
struct ServePageEndpointTests {
    /// `/api/graph?at=` draws what `graph --at` draws: the same nodes, with the values then.
    @Test func theGraphAtAMomentIsGraphAt() throws {
        let trace = try SampleTrace.todos.get()
        let server = try InspectorClient(trace: trace.path)
        let answer = try server.get("/api/graph?at=action:3").json()
        let svg = try #require(answer["svg"] as? String)
        let dot = try BuiltProducts.inspect("graph", trace.path, "--at", "action:3", "--format", "svg", "-o", "-")
        #expect(dot.status == 0)
        // The page's SVG is titled by the file's name, as graph's is: the same picture.
        #expect(svg == dot.stdout, "the page's graph at action:3 differs from graph --at action:3")
        #expect(try server.get("/api/graph?at=action:999").status == 404)
        #expect(try server.get("/api/graph?at=soon").status == 400)
    }

    @Test func theTimelineAnswersForAPictureAndRefusesMalformedNumbers() throws {
        let trace = try SampleTrace.todos.get()
        let server = try InspectorClient(trace: trace.path)
        let timeline = try server.get("/api/timeline?width=200").json()
        let tracks = try #require(timeline["tracks"] as? [[String: Any]])
        #expect(tracks.count == 1)
        let slices = (tracks.first?["slices"] as? [[String: Any]]) ?? []
        #expect(slices.contains { $0["kind"] as? String == "action" })
        for bad in ["width=wide", "from=-1", "to=1e9", "from=5&to=4"] {
            #expect(try server.get("/api/timeline?\(bad)").status == 400, "\(bad)")
        }
    }

    /// `format=text` gives the lines `replay` prints, the same formatter.
    @Test func replaysTextLinesAreReplaysOwn() throws {
        let trace = try SampleTrace.todos.get()
        let server = try InspectorClient(trace: trace.path)
        let answer = try server.get("/api/replay?format=text&limit=5000&filter=rerun").json()
        let lines = try #require(answer["lines"] as? [String])
        let printed = try BuiltProducts.inspect("replay", trace.path, "--filter", "rerun")
        #expect(lines == printed.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init))
        #expect(answer["matched"] as? Int == lines.count)
        #expect(try server.get("/api/replay?format=yaml").status == 400)
    }
}
