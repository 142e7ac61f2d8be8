import BuiltProducts
import Foundation
import ReactorTrace
import Testing

/// The page's views in a real browser: the graph fits, zooms and finds a node;
/// the timeline has a track per thread; a chosen action's state marks what it
/// changed; and the page holds up on a large graph and on traces with nothing in them.
extension ServePageBrowserTests {
    @Test func theGraphFitsItsPaneZoomsAndFindsANode() throws {
        let trace = try SampleTrace.todos.get()
        let server = try InspectorClient(trace: trace.path)
        let run = try HeadlessBrowser.drive(["--url", "http://127.0.0.1:\(server.port)/", "--navigate", "list"])
        #expect(run.status == 0, "\(run.output)")
        let seen = run.report["seen"] as? [String: Any] ?? [:]
        #expect(seen["fits"] as? Bool == true, "\(run.output)")
        #expect(seen["searchCentred"] as? Bool == true, "\(run.output)")
    }

    /// The search box finds a node the abridged graph does not draw: the page
    /// draws the graph around it, centred.
    @Test func theSearchBoxFindsANodeTheGraphLeftOut() throws {
        let trace = try SampleTrace.record("stress", ["--computations", "400", "--writes", "40", "--seed", "3"],
                                           file: "stress-400")
        let server = try InspectorClient(trace: trace.path)
        let graph = try JSONSerialization.jsonObject(with: Data(try server.http.get("/api/graph").body)) as? [String: Any]
        let drawn = Set(((graph?["nodes"] as? [[String: Any]]) ?? []).compactMap { $0["name"] as? String })
        let names = (graph?["names"] as? [String]) ?? []
        let missing = try #require(names.first { !drawn.contains($0) && $0.hasPrefix("c") }, "every node drawn")
        let run = try HeadlessBrowser.drive(["--url", "http://127.0.0.1:\(server.port)/", "--navigate", missing,
                                             "--timeout", "60"])
        #expect(run.status == 0, "\(run.output)")
        #expect((run.report["seen"] as? [String: Any])?["searchCentred"] as? Bool == true, "\(run.output)")
    }

    @Test func theTimelineHasATrackPerThreadAndAClickSetsTheMoment() throws {
        let trace = try SampleTrace.stressThreads.get()
        // The threads that recorded an event, as replay names them.
        let replay = try BuiltProducts.inspect("replay", trace.path, "--json")
        var threads = Set<String>()
        for line in replay.stdout.split(separator: "\n") {
            if let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
               let thread = object["thread"] as? Int { threads.insert(String(thread)) }
        }
        #expect(threads.count > 1)
        let server = try InspectorClient(trace: trace.path)
        let run = try HeadlessBrowser.drive(["--url", "http://127.0.0.1:\(server.port)/", "--timeline"])
        #expect(run.status == 0, "\(run.output)")
        let seen = run.report["seen"] as? [String: Any] ?? [:]
        #expect(Set(seen["timelineTracks"] as? [String] ?? []) == threads, "\(run.output)")
        #expect((seen["timelineMoment"] as? String)?.hasPrefix("at ") == true, "\(run.output)")
    }

    /// Action 3 of todos adds a todo: the rows marked are those whose value
    /// `state --at action:3` gives differently from `state --at action:2`.
    @Test func anActionsStateMarksWhatItChanged() throws {
        let trace = try SampleTrace.todos.get()
        func state(_ moment: String) throws -> [String: String?] {
            let run = try BuiltProducts.inspect("state", trace.path, "--at", moment, "--json")
            let entries = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
            var values: [String: String?] = [:]
            for entry in entries { values[entry["name"] as? String ?? ""] = entry["value"] as? String }
            return values
        }
        let before = try state("action:2"), after = try state("action:3")
        let expected = Set(after.keys.filter { before[$0] == nil || before[$0]! != after[$0]! })
            .union(before.keys.filter { after[$0] == nil })
        #expect(expected.contains("TodoStore.todos"))
        let server = try InspectorClient(trace: trace.path)
        let run = try HeadlessBrowser.drive(["--url", "http://127.0.0.1:\(server.port)/", "--state-diff", "3"])
        #expect(run.status == 0, "\(run.output)")
        #expect(Set((run.report["seen"] as? [String: Any])?["changedRows"] as? [String] ?? []) == expected, "\(run.output)")
    }

    /// A 1,000-computation graph: drawn as its layers, one opened, fitted, zoomed, searched. The times
    /// are printed for Benchmarks/README, not judged here.
    @Test func aThousandNodeGraphStaysNavigable() throws {
        let trace = try SampleTrace.record("stress", ["--computations", "1000", "--writes", "20", "--seed", "5"],
                                           file: "stress-1000")
        let server = try InspectorClient(trace: trace.path)
        let run = try HeadlessBrowser.drive(["--url", "http://127.0.0.1:\(server.port)/", "--measure", "--layers",
                                             "--navigate", "effect0", "--timeout", "90"])
        #expect(run.status == 0, "\(run.output)")
        let seen = run.report["seen"] as? [String: Any] ?? [:]
        // Too large to draw whole: it opens as its layers, and a layer opens on a click.
        #expect((seen["layerNodes"] as? Int ?? 0) > 1, "\(run.output)")
        #expect(seen["afterOpening"] as? Int != nil, "\(run.output)")
        #expect(seen["fits"] as? Bool == true, "\(run.output)")
        print("1,000 computations: first draw \(seen["firstDrawMilliseconds"] ?? "?") ms, zoom \(seen["zoomMilliseconds"] ?? "?") ms")
    }

    /// 5,000 computations: the page opens them as layers, a layer opens, and
    /// the timeline draws; no script fails.
    @Test func aFiveThousandNodeGraphOpensAsLayers() throws {
        let trace = try SampleTrace.record("stress", ["--computations", "5000", "--writes", "4", "--seed", "2"],
                                           file: "stress-5000")
        let server = try InspectorClient(trace: trace.path)
        let run = try HeadlessBrowser.drive(["--url", "http://127.0.0.1:\(server.port)/", "--layers", "--timeline",
                                             "--timeout", "120"])
        #expect(run.status == 0, "\(run.output)")
        #expect(((run.report["seen"] as? [String: Any])?["layerNodes"] as? Int ?? 0) > 1, "\(run.output)")
    }

    /// A trace with no event at all, and one with no action on one thread: the
    /// page says so and no script fails.
    @Test func emptyAndActionlessTracesShowWithoutErrors() throws {
        let empty = SampleTrace.directory.appendingPathComponent("page-empty-\(UUID().uuidString).trace").path
        defer { unlink(empty) }
        _ = try TraceRecorder(path: empty).stop()
        let server = try InspectorClient(trace: empty)
        let run = try HeadlessBrowser.drive(["--url", "http://127.0.0.1:\(server.port)/", "--empty"])
        #expect(run.status == 0, "\(run.output)")
        let counter = try SampleTrace.counter.get()
        let second = try InspectorClient(trace: counter.path)
        let actionless = try HeadlessBrowser.drive(["--url", "http://127.0.0.1:\(second.port)/", "--timeline", "--navigate", "label"])
        #expect(actionless.status == 0, "\(actionless.output)")
    }
}

extension ServePageBrowserTests {
    /// Enter in the Events filter lists the matching events and says how many
    /// match (the count `replay` prints with the same term), or that none do.
    @Test func theEventsFilterSubmitsOnEnterAndShowsItsResult() throws {
        let trace = try SampleTrace.todos.get()
        let server = try InspectorClient(trace: trace.path)
        let term = "rerun"
        let lines = try BuiltProducts.inspect("replay", trace.path, "--filter", term).stdout
            .split(separator: "\n").count
        let screenshot = SampleTrace.directory.appendingPathComponent("serve-events-filter.png").path
        let run = try HeadlessBrowser.drive(["--url", "http://127.0.0.1:\(server.port)/", "--filter", term,
                                             "--filter", "name:no-such-node", "--screenshot", screenshot])
        #expect(run.status == 0, "\(run.output)")
        let filters = (run.report["seen"] as? [String: Any])?["filters"] as? [[String: Any]] ?? []
        try #require(filters.count == 2, "\(run.output)")
        #expect(lines > 0)
        #expect(filters[0]["result"] as? String
                    == "\(lines.formatted(.number.locale(Locale(identifier: "en_US")))) event\(lines == 1 ? "" : "s") matching '\(term)', latest \(min(lines, 200)) shown",
                "\(run.output)")
        #expect(filters[0]["lines"] as? Int == min(lines, 200), "\(run.output)")
        #expect(filters[1]["result"] as? String == "no events match 'name:no-such-node'", "\(run.output)")
        let png = try Data(contentsOf: URL(fileURLWithPath: screenshot))
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]), "a PNG screenshot")
    }
}
