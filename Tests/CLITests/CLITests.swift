import BuiltProducts
import Foundation
import ReactorTrace
import Testing

@Suite struct SampleTruthTests {
    @Test(arguments: ["counter", "todos", "profile", "stress", "stress-threads"])
    func hotRerunsEqualTheSamplesOwnCounters(sample: String) throws {
        let trace = try SampleTrace.named(sample)
        let result = try BuiltProducts.inspect("hot", trace.path, "--json", "--top", "100000")
        #expect(result.status == 0, "\(result.stderr)")
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        var reruns: [String: Int] = [:]
        for entry in entries {
            let name = try #require(entry["name"] as? String)
            reruns[name] = try #require(entry["reruns"] as? Int)
            for key in ["totalNanoseconds", "maxNanoseconds", "topCauses"] { #expect(entry[key] != nil) }
        }
        #expect(!trace.reruns.isEmpty)
        for (name, count) in trace.reruns {
            #expect(reruns[name] == count, "\(sample): \(name)")
        }
    }

    @Test func counterLabelRerunsExactlyOneHundredTimes() throws {
        let trace = try SampleTrace.counter.get()
        #expect(trace.reruns["label"] == 100)
        let result = try BuiltProducts.inspect("hot", trace.path)
        #expect(result.stdout.contains("label"))
        #expect(result.stdout.contains("  100  "))
        let why = try BuiltProducts.inspect("why", trace.path, "label", "--limit", "2")
        #expect(why.status == 0)
        #expect(why.stdout.contains("100×  CounterViewModel.counter changed → autorun label invalidated → autorun label reran"))
    }

    @Test func summaryJSONCountsEveryEventTheReaderSees() throws {
        let trace = try SampleTrace.stress.get()
        let result = try BuiltProducts.inspect("summary", trace.path, "--json")
        #expect(result.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let reader = try TraceReader(path: trace.path)
        let events = try reader.skipToEnd()
        #expect(object["events"] as? Int == events)
        #expect((object["nodes"] as? Int ?? 0) > 60)
        #expect((object["durationNanoseconds"] as? Int ?? 0) > 0)
        let runs = try #require(object["reruns"] as? Int)
        #expect(runs == trace.reruns.values.reduce(0, +))
    }

    @Test func replayPrintsOneLineAnEventAndFilters() throws {
        let trace = try SampleTrace.counter.get()
        let all = try BuiltProducts.inspect("replay", trace.path)
        let reader = try TraceReader(path: trace.path)
        #expect(all.stdout.split(separator: "\n").count == (try reader.skipToEnd()))
        let begins = try BuiltProducts.inspect("replay", trace.path, "--filter", "rerun-begin", "--filter", "name:label")
        #expect(begins.stdout.split(separator: "\n").count == 101)
        let bad = try BuiltProducts.inspect("replay", trace.path, "--filter", "kind:nonsense")
        #expect(bad.status == 2)
        #expect(bad.stderrLines.count == 1)
    }
}

@Suite struct GraphCommandTests {
    @Test func writesTheSVGNextToTheTraceAndSaysWhere() throws {
        let source = try SampleTrace.counter.get()
        let directory = SampleTrace.directory.appendingPathComponent("graph-default")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let copy = directory.appendingPathComponent("run.trace")
        try? FileManager.default.removeItem(at: copy)
        try FileManager.default.copyItem(atPath: source.path, toPath: copy.path)
        let result = try BuiltProducts.inspect("graph", copy.path)
        #expect(result.status == 0, "\(result.stderr)")
        let svgPath = directory.appendingPathComponent("run.svg").path
        #expect(result.stdout.contains("wrote \(svgPath)"))
        let svg = try String(contentsOfFile: svgPath, encoding: .utf8)
        #expect(svg.contains("<svg"))
        #expect(svg.contains(">label</text>"))
        #expect(svg.contains("xlink:title=\"label (autorun)"))
    }

    @Test func dotToStdoutAndFocus() throws {
        let trace = try SampleTrace.stress.get()
        let result = try BuiltProducts.inspect("graph", trace.path, "--format", "dot", "-o", "-", "--top", "3")
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("digraph reactor"))
        #expect(result.stderr.contains("Showing"))
        let unknown = try BuiltProducts.inspect("graph", trace.path, "--focus", "no-such-node")
        #expect(unknown.status == 2)
        #expect(unknown.stderrLines == ["reactor-inspect: error: no node named 'no-such-node' in this trace"])
    }
}

@Suite struct BadInputTests {
    private func file(_ name: String, _ bytes: [UInt8]) throws -> String {
        let url = SampleTrace.directory.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    private func expectOneLineFailure(_ result: BuiltProducts.Run, containing text: String) {
        #expect(result.status == 2)
        #expect(result.stderrLines.count == 1, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("reactor-inspect: error:"))
        #expect(result.stderr.contains(text), "\(result.stderr)")
    }

    // Each command's own files: the cases run in parallel, and a file being rewritten reads as empty.
    @Test(arguments: ["summary", "hot", "replay", "graph"])
    func unreadableFilesFailWithOneLine(command: String) throws {
        expectOneLineFailure(try BuiltProducts.inspect(command, "/no/such/trace"), containing: "/no/such/trace")
        expectOneLineFailure(try BuiltProducts.inspect(command, try file("\(command)-empty.trace", [])), containing: "empty")
        var generator = SystemRandomNumberGenerator()
        let noise = (0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) }
        expectOneLineFailure(try BuiltProducts.inspect(command, try file("\(command)-noise.trace", noise)), containing: "not a Reactor trace")
        let header = try Array(Data(contentsOf: URL(fileURLWithPath: try SampleTrace.counter.get().path)).prefix(12))
        expectOneLineFailure(try BuiltProducts.inspect(command, try file("\(command)-cut-header.trace", header)), containing: "truncated")
    }

    @Test func whyFailsOnUnknownTraceOrName() throws {
        expectOneLineFailure(try BuiltProducts.inspect("why", "/no/such/trace", "x"), containing: "/no/such/trace")
        let trace = try SampleTrace.counter.get()
        expectOneLineFailure(try BuiltProducts.inspect("why", trace.path, "lable"), containing: "did you mean 'label'")
    }

    @Test func badFlagsFailWithOneLine() throws {
        let trace = try SampleTrace.counter.get()
        expectOneLineFailure(try BuiltProducts.inspect("hot", trace.path, "--bogus"), containing: "--bogus")
        expectOneLineFailure(try BuiltProducts.inspect("hot", trace.path, "--top", "0"), containing: "--top")
        expectOneLineFailure(try BuiltProducts.inspect("hot", trace.path, "--by", "speed"), containing: "speed")
        expectOneLineFailure(try BuiltProducts.inspect("graph", trace.path, "--at", "soon"), containing: "--at")
        expectOneLineFailure(try BuiltProducts.inspect("nonsense"), containing: "nonsense")
    }

    @Test func truncatedTraceReportsWhatItHoldsWithAWarning() throws {
        let trace = try SampleTrace.stress.get()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: trace.path))
        let cut = try file("cut.trace", Array(bytes.prefix(bytes.count / 2)))
        let result = try BuiltProducts.inspect("summary", cut, "--json")
        #expect(result.status == 2)
        #expect(result.stderrLines.count == 1)
        #expect(result.stderr.hasPrefix("reactor-inspect: warning: \(cut):"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let events = try #require(object["events"] as? Int)
        #expect(events > 0)
        #expect(result.stderr.contains("showing the \(events) events"))
    }
}

@Suite struct TerminalOutputTests {
    @Test func plainWhenPipedColouredOnRequest() throws {
        let trace = try SampleTrace.counter.get()
        let piped = try BuiltProducts.inspect("hot", trace.path)
        #expect(!piped.stdout.contains("\u{1B}["))
        let forced = try BuiltProducts.inspect("hot", trace.path, "--color", "always")
        #expect(forced.stdout.contains("\u{1B}[1m"))
        let noColor = try BuiltProducts.inspect("hot", trace.path, environment: ["NO_COLOR": "1"])
        #expect(!noColor.stdout.contains("\u{1B}["))
        #expect(piped.stderr.isEmpty)  // no progress line when stderr is not a terminal
    }

    @Test func helpHasExamples() throws {
        for command in ["summary", "hot", "why", "replay", "graph"] {
            let help = try BuiltProducts.inspect(command, "--help")
            #expect(help.status == 0)
            #expect(help.stdout.contains("Examples:"), "\(command)")
        }
    }

    /// A help text's lines fit an 80-column terminal as written: none is broken
    /// mid-sentence (the text between the overview and USAGE is the same at 80
    /// columns as at 1000).
    @Test func helpTextsFitEightyColumns() throws {
        func discussion(_ arguments: [String], columns: Int) throws -> [Substring] {
            let help = try BuiltProducts.run("reactor-inspect", arguments, environment: ["COLUMNS": String(columns)])
            #expect(help.status == 0, "\(arguments)")
            let lines = help.stdout.split(separator: "\n", omittingEmptySubsequences: false)
            let overviewEnd = lines.firstIndex(of: "") ?? 0
            let usage = lines.firstIndex { $0.hasPrefix("USAGE:") } ?? lines.endIndex
            return Array(lines[overviewEnd..<usage])
        }
        for command in [[], ["summary"], ["hot"], ["why"], ["replay"], ["graph"], ["check"], ["diff"], ["export"],
                        ["report"], ["top"], ["state"], ["history"], ["serve"], ["index"], ["waste"], ["sql"],
                        ["trend"], ["mcp"]] {
            let arguments = command.isEmpty ? ["--help"] : ["help"] + command
            let narrow = try discussion(arguments, columns: 80)
            #expect(narrow.count > 2, "\(arguments)")
            #expect(narrow == (try discussion(arguments, columns: 1000)), "\(arguments)")
        }
    }
}

@Suite struct TodosSampleTests {
    @Test func whyListStartsAtTheStoreActions() throws {
        let trace = try SampleTrace.todos.get()
        let result = try BuiltProducts.inspect("why", trace.path, "list")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("action TodoStore.addTodo(_:) → TodoStore.todos changed → autorun list invalidated → autorun list reran"))
        #expect(result.stdout.contains("action TodoStore.setVisibilityFilter(_:)"))
        let reruns = try #require(trace.reruns["list"])
        #expect(result.stdout.contains("\(reruns + 1) runs, \(reruns) reruns"))
    }

    @Test func graphShowsTheStoreClusterAndComputed() throws {
        let trace = try SampleTrace.todos.get()
        let result = try BuiltProducts.inspect("graph", trace.path, "--format", "svg", "-o", "-")
        #expect(result.status == 0)
        #expect(result.stdout.contains("store TodoStore"))
        #expect(result.stdout.contains(">remainingCount</text>"))
        #expect(result.stdout.contains("xlink:title=\"countLabel (autorun)"))
    }

    @Test func graphAtAMomentDrawsTheEdgesHeldThen() throws {
        let trace = try SampleTrace.todos.get()
        // Before anything ran: no edges yet. At the end: every edge.
        let early = try BuiltProducts.inspect("graph", trace.path, "--at", "0", "--format", "dot", "-o", "-")
        #expect(early.status == 0, "\(early.stderr)")
        #expect(early.stdout.contains("graph at 0.000 ms"))
        #expect(!early.stdout.contains("reads"))
        let late = try BuiltProducts.inspect("graph", trace.path, "--at", "1h", "--format", "dot", "-o", "-")
        #expect(late.status == 2)  // 1h is not a time this parser knows: one line, status 2
        let pastEnd = try BuiltProducts.inspect("graph", trace.path, "--at", "100000s", "--format", "dot", "-o", "-")
        #expect(pastEnd.status == 2)
        #expect(pastEnd.stderr.contains("is past the end of the trace"))
        let end = try BuiltProducts.inspect("graph", trace.path, "--at", "action:14", "--format", "dot", "-o", "-")
        #expect(end.status == 0, "\(end.stderr)")
        #expect(end.stdout.contains("countLabel reads remainingCount"))
    }

    @Test func whyJSONHasChains() throws {
        let trace = try SampleTrace.todos.get()
        let result = try BuiltProducts.inspect("why", trace.path, "countLabel", "--json")
        #expect(result.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["reruns"] as? Int == trace.reruns["countLabel"])
        let patterns = try #require(object["patterns"] as? [[String: Any]])
        let chain = try #require(patterns.first?["chain"] as? [String])
        #expect(chain.first?.hasPrefix("action TodoStore.") == true)
        #expect(chain.last == "autorun countLabel reran")
    }

    @Test func summaryListsTheActions() throws {
        let trace = try SampleTrace.todos.get()
        let result = try BuiltProducts.inspect("summary", trace.path)
        #expect(result.stdout.contains("TodoStore.addTodo(_:)"))
        #expect(result.stdout.contains("×5"))
    }
}
