import BuiltProducts
import Foundation
import Testing
#if canImport(FoundationXML)
import FoundationXML
#endif

/// `reactor-inspect serve` through the built binary and plain sockets: the
/// endpoints answer what the CLI commands print, the server is read-only and
/// closed to every path but its own, it follows a trace that grows, and bad
/// input is one line and status 2.
@Suite struct ServeCommandTests {
    @Test func summaryIsExactlyWhatSummaryJSONPrints() throws {
        let trace = try SampleTrace.todos.get()
        let server = try InspectorClient(trace: trace.path)
        let served = try server.get("/api/summary")
        #expect(served.status == 200)
        #expect(served.headers["content-type"] == "application/json")
        let printed = try BuiltProducts.inspect("summary", trace.path, "--json")
        #expect(printed.status == 0)
        #expect(served.text == printed.stdout)
        let top = try server.get("/api/summary?top=2")
        #expect(top.text == (try BuiltProducts.inspect("summary", trace.path, "--json", "--top", "2")).stdout)
    }

    @Test func thePageAndEachEndpointAnswer() throws {
        let trace = try SampleTrace.todos.get()
        let server = try InspectorClient(trace: trace.path)
        let page = try server.get("/")
        #expect(page.status == 200)
        #expect(page.headers["content-type"] == "text/html; charset=utf-8")
        #expect(page.text.contains("<script src=\"/app.js\""))
        #expect(page.headers["content-security-policy"]?.contains("script-src 'self'") == true)
        #expect(page.headers["x-content-type-options"] == "nosniff")
        #expect(try server.get("/app.js").headers["content-type"] == "text/javascript; charset=utf-8")
        #expect(try server.get("/app.css").status == 200)

        let graph = try server.get("/api/graph").json()
        let svg = try #require(graph["svg"] as? String)
        #expect(svg.contains("<svg"))
        let nodes = (graph["nodes"] as? [[String: Any]]) ?? []
        let drawn = Set(nodes.compactMap { $0["name"] as? String })
        for name in trace.reruns.keys { #expect(drawn.contains(name), "\(name)") }
        // Each node's group in the SVG carries the id the answer gives it, whatever its name.
        let document = try XMLDocument(data: Data(svg.utf8))
        for node in nodes {
            let id = try #require(node["id"] as? String)
            #expect(try document.nodes(forXPath: "//*[local-name()='g'][@id='\(id)']").count == 1, "\(id)")
        }
        let focused = try server.get("/api/graph?focus=list&depth=1").json()
        #expect(((focused["nodes"] as? [[String: Any]]) ?? []).count < drawn.count)

        let why = try server.get("/api/why?node=list").json()
        let printedWhy = try JSONSerialization.jsonObject(
            with: Data(try BuiltProducts.inspect("why", trace.path, "list", "--json").stdout.utf8)) as? [String: Any]
        #expect(why["target"] as? String == "list")
        #expect(why["reruns"] as? Int == trace.reruns["list"])
        #expect(why["reruns"] as? Int == printedWhy?["reruns"] as? Int)
        #expect(try server.get("/api/why?node=no-such-thing").status == 404)

        // Time travel: the same entries as `state --at action:3 --json`.
        let state = try server.get("/api/state?at=action:3").json()
        #expect(state["moment"] as? String == "action:3")
        let entries = try #require(state["entries"] as? [[String: Any]])
        let printedState = try #require(try JSONSerialization.jsonObject(
            with: Data(try BuiltProducts.inspect("state", trace.path, "--at", "action:3", "--json").stdout.utf8)) as? [[String: Any]])
        #expect(entries.count == printedState.count)
        #expect(entries.map { $0["name"] as? String } == printedState.map { $0["name"] as? String })
        #expect(entries.map { $0["value"] as? String } == printedState.map { $0["value"] as? String })
        #expect(try server.get("/api/state?at=action:100000").status == 404)
        #expect(try server.get("/api/state?at=yesterday").status == 400)

        // Replay's filters: the last lines of `replay --json --filter kind:action-begin`.
        let printedReplay = try BuiltProducts.inspect("replay", trace.path, "--json", "--filter", "kind:action-begin")
        let printedLines = printedReplay.stdout.split(separator: "\n")
        let replay = try server.get("/api/replay?filter=kind:action-begin&limit=2").json()
        #expect(replay["matched"] as? Int == printedLines.count)
        let lines = try #require(replay["lines"] as? [[String: Any]])
        #expect(lines.count == 2)
        let lastPrinted = try JSONSerialization.jsonObject(with: Data(printedLines.last!.utf8)) as? [String: Any]
        #expect(lines.last?["timeNanoseconds"] as? Int == lastPrinted?["timeNanoseconds"] as? Int)
        #expect(try server.get("/api/replay?filter=kind:nonsense").status == 400)

        let snapshot = try server.get("/api/snapshot").json()
        #expect(snapshot["status"] as? String == "finished")
        let hot = try #require(snapshot["hot"] as? [[String: Any]])
        #expect(hot.contains { $0["name"] as? String == "list" })
    }

    @Test(arguments: ["/..", "/../app.js", "/%2e%2e/etc/passwd", "/%2E%2E%2Fapp.js", "/api/../app.js", "/./app.js",
                      "/etc/passwd", "//etc/passwd", "/app.js/../../etc/passwd", "/api%2fsummary", "/api/summary/",
                      "/%61pp.js", "/app.js%00", "/index.html/", "/..%5capp.js", "/Sources/ReactorInspectorServer/PageAssets.swift",
                      "http://127.0.0.1/etc/passwd"])
    func pathsOutsideTheRoutesAreNotFound(path: String) throws {
        let server = try InspectorClient(trace: try SampleTrace.counter.get().path)
        let answer = try server.get(path)
        #expect(answer.status == 404, "\(path): \(answer.status)")
        #expect(!answer.text.contains("root:"), "\(path)")
    }

    @Test func onlyGETIsAnswered() throws {
        let server = try InspectorClient(trace: try SampleTrace.counter.get().path)
        for method in ["POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"] {
            let answer = try server.request("/api/summary", method: method)
            #expect(answer.status == 405, "\(method)")
            #expect(answer.headers["allow"] == "GET", "\(method)")
        }
        #expect(try server.get("/api/summary").status == 200)
    }

    @Test func anotherSitesHostNameIsRefused() throws {
        let server = try InspectorClient(trace: try SampleTrace.counter.get().path)
        #expect(try server.request("/api/summary", host: "attacker.example:\(server.port)").status == 403)
        #expect(try server.request("/api/summary", host: "localhost:\(server.port)").status == 200)
    }

    @Test func summaryEventsGrowWhileTheAppRecords() throws {
        let path = SampleTrace.directory.appendingPathComponent("serve-growing-\(UUID().uuidString).trace").path
        defer { unlink(path) }
        let (stress, output) = try BuiltProducts.launch("stress", ["--computations", "60", "--loop", "--trace", path])
        defer { if stress.isRunning { kill(stress.processIdentifier, SIGKILL); stress.waitUntilExit() } }
        #expect(BuiltProducts.readLine(output) == "recording")
        let server = try InspectorClient(trace: path)
        // The server pushes an update after each step that read more of the trace: the
        // summaries are asked for after such steps, however long a loaded machine takes.
        let updates = try server.updates()
        let deadline = ContinuousClock.now + .seconds(300)
        var read = 0
        while read == 0 { read = Self.events(in: try updates.next(before: deadline)) }
        // The summary counts clock events too, the snapshot not.
        let first = try server.get("/api/summary").json()
        let before = try #require(first["events"] as? Int)
        #expect(before >= read)
        #expect(before > 0)
        while read <= before { read = Self.events(in: try updates.next(before: deadline)) }
        let second = try server.get("/api/summary").json()
        let after = try #require(second["events"] as? Int)
        #expect(after >= read)
        #expect(after > before)
        #expect(second["ending"] == nil, "no end block while recording")
    }

    /// The events an `update` message's snapshot counts (0 without a snapshot).
    static func events(in update: [String: Any]) -> Int {
        (update["snapshot"] as? [String: Any])?["events"] as? Int ?? 0
    }

    /// `why`, `state` and `replay` read the file themselves: on a trace that
    /// keeps growing (about 60,000 events a second, so that a debug build's
    /// passes stay short on a busy machine), each reads what was written when
    /// it began, and answers.
    @Test func passesOverAGrowingTraceStopAtWhatWasWritten() throws {
        let path = SampleTrace.directory.appendingPathComponent("serve-passes-\(UUID().uuidString).trace").path
        defer { unlink(path) }
        let (stress, output) = try BuiltProducts.launch("stress", ["--computations", "60", "--loop", "--writes-per-second", "400",
                                                                   "--trace", path])
        defer { if stress.isRunning { kill(stress.processIdentifier, SIGKILL); stress.waitUntilExit() } }
        #expect(BuiltProducts.readLine(output) == "recording")
        let server = try InspectorClient(trace: path)
        // The passes read the file, not the server's model: they answer once it holds a rerun of effect0.
        try RecordingProgress.waitForReruns(of: "effect0", count: 1, in: path, recordedBy: stress)
        let why = try server.get("/api/why?node=effect0&limit=3")
        #expect(why.status == 200, "\(why.text)")
        #expect(try why.json()["reruns"] as? Int ?? 0 > 0)
        let replay = try server.get("/api/replay?filter=kind:rerun-begin&limit=5").json()
        #expect((replay["lines"] as? [Any])?.count == 5)
        let state = try server.get("/api/state?at=1ms")
        #expect(state.status == 200, "\(state.text)")
        #expect(stress.isRunning)
    }

    @Test func aClientThatDisconnectsMidStreamLeavesTheServerRunning() throws {
        let server = try InspectorClient(trace: try SampleTrace.todos.get().path)
        for _ in 0..<5 {
            let stream = try server.openStream()
            #expect(stream.received.contains("text/event-stream"))
            #expect(stream.received.contains("\"status\":\"finished\""))
            close(stream.socket)
        }
        // One dropped after the server's heartbeat went out into the void, too.
        let stream = try server.openStream()
        shutdown(stream.socket, Int32(SHUT_RDWR))
        close(stream.socket)
        sleep(6)
        #expect(server.process.isRunning)
        #expect(try server.get("/api/summary").status == 200)
    }

    @Test func aPortInUseIsOneLineAndStatusTwo() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) == 0 && listen(listener, 1) == 0
                && getsockname(listener, $0, &length) == 0 }
        }
        try #require(bound)
        let port = UInt16(bigEndian: address.sin_port)
        let result = try BuiltProducts.inspect("serve", try SampleTrace.counter.get().path, "--port", "\(port)")
        #expect(result.status == 2)
        #expect(result.stderrLines.count == 1, "\(result.stderr)")
        #expect(result.stderr.contains("port \(port)") && result.stderr.contains("in use"), "\(result.stderr)")
    }

    @Test func aForeignFileIsOneLineAndStatusTwo() throws {
        let path = SampleTrace.directory.appendingPathComponent("serve-foreign-\(UUID().uuidString).txt").path
        defer { unlink(path) }
        try Data("not a trace at all, just text\n".utf8).write(to: URL(fileURLWithPath: path))
        let result = try BuiltProducts.inspect("serve", path, "--port", "0")
        #expect(result.status == 2)
        #expect(result.stderrLines.count == 1)
        #expect(result.stderr.contains("not a Reactor trace"))
        #expect(result.stdout.isEmpty)
    }

    @Test func badOptionsAreOneLineAndStatusTwo() throws {
        let trace = try SampleTrace.counter.get().path
        for arguments in [["--port", "70000"], ["--host", "not-an-address"]] {
            let result = try BuiltProducts.run("reactor-inspect", ["serve", trace] + arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stderrLines.count == 1, "\(arguments): \(result.stderr)")
        }
    }

    @Test func aTraceThatIsNotThereYetIsWaitedForAndCtrlCStops() throws {
        let directory = SampleTrace.directory.appendingPathComponent("serve-wait-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("later.trace").path
        let server = try InspectorClient(trace: path)
        let line = BuiltProducts.readLine(server.errors) ?? ""
        #expect(line.contains("waiting for \(path) to appear"), "\(line)")
        let waiting = try server.get("/api/summary")
        #expect(waiting.status == 503)
        #expect(waiting.text.contains("waiting for"))
        let sample = try SampleTrace.counter.get()
        try FileManager.default.copyItem(atPath: sample.path, toPath: path + ".part")
        #expect(rename(path + ".part", path) == 0)
        var status = 0
        for _ in 0..<50 where status != 200 {
            usleep(100_000)
            status = try server.get("/api/summary").status
        }
        #expect(status == 200)
        #expect(try server.get("/api/summary").text == (try BuiltProducts.inspect("summary", path, "--json")).stdout)
        kill(server.process.processIdentifier, SIGINT)
        server.process.waitUntilExit()
        #expect(server.process.terminationReason == .exit)
        #expect(server.process.terminationStatus == 130, "exit status 128 + SIGINT")
    }

    @Test func openHandsThePageToTheBrowser() throws {
        let directory = try CICommand.temporaryDirectory()
        let opened = directory.appendingPathComponent("opened-\(UUID().uuidString)").path
        let browser = directory.appendingPathComponent("browser-\(UUID().uuidString).sh").path
        try Data("#!/bin/sh\nprintf '%s' \"$1\" > '\(opened)'\n".utf8).write(to: URL(fileURLWithPath: browser))
        #expect(chmod(browser, 0o755) == 0)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try BuiltProducts.path(of: "reactor-inspect"))
        process.arguments = ["serve", try SampleTrace.counter.get().path, "--port", "0", "--open"]
        process.environment = ProcessInfo.processInfo.environment.merging(["BROWSER": browser]) { $1 }
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() }
        let line = BuiltProducts.readLine(out.fileHandleForReading) ?? ""
        var url = ""
        for _ in 0..<100 where url.isEmpty {
            usleep(50_000)
            url = (try? String(contentsOfFile: opened, encoding: .utf8)) ?? ""
        }
        #expect(url.hasPrefix("http://127.0.0.1:"))
        #expect(line.contains(url), "\(line)")
    }

    @Test func anAddressOtherThanLoopbackIsWarnedAbout() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try BuiltProducts.path(of: "reactor-inspect"))
        process.arguments = ["serve", try SampleTrace.counter.get().path, "--port", "0", "--host", "0.0.0.0"]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        defer { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() }
        let line = BuiltProducts.readLine(errors.fileHandleForReading) ?? ""
        #expect(line.contains("warning: listening on 0.0.0.0"), "\(line)")
    }

    /// Names are data in the page too: the script never turns text into
    /// markup, the SVG carries them escaped, the JSON carries them exactly.
    @Test func hostileNamesStayInert() throws {
        let trace = try HostileNamesTests.trace.get()
        let server = try InspectorClient(trace: trace)
        let script = try server.get("/app.js").text
        for sink in ["innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function", "srcdoc"] {
            #expect(!script.contains(sink), "the page script uses \(sink)")
        }
        #expect(!(try server.get("/").text.contains("onclick")))
        let graph = try server.get("/api/graph?top=50").json()
        let svg = try #require(graph["svg"] as? String)
        #expect(!svg.contains("<script"))
        #expect(!svg.contains("<b>"))
        let document = try XMLDocument(data: Data(svg.utf8))
        #expect(try document.nodes(forXPath: "//*[local-name()='script' or local-name()='foreignObject']").isEmpty)
        #expect(try document.nodes(forXPath: "//@*[starts-with(local-name(), 'on')]").isEmpty)
        let nodes = (graph["nodes"] as? [[String: Any]]) ?? []
        #expect(nodes.contains { $0["name"] as? String == HostileTrace.computation })
        for node in nodes {
            let id = try #require(node["id"] as? String)
            #expect(try document.nodes(forXPath: "//*[local-name()='g'][@id='\(id)']").count == 1, "\(id)")
        }
        let snapshot = try server.get("/api/snapshot").json()
        let hot = ((snapshot["hot"] as? [[String: Any]]) ?? []).compactMap { $0["name"] as? String }
        #expect(hot.contains(HostileTrace.effect))
        let actions = ((snapshot["actions"] as? [[String: Any]]) ?? []).compactMap { $0["name"] as? String }
        #expect(actions.contains { $0.hasPrefix(HostileTrace.store) })
    }

    /// The load of `serve`'s benchmark: `stress --writes-per-second` paces `--loop`: at 5 writes a second, a second of
    /// recording holds a handful of writes, where an unpaced loop makes thousands.
    @Test func writesPerSecondPacesTheLoop() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("paced-\(UUID()).trace").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let pace = 5
        let launched = ContinuousClock.now
        let (stress, output) = try BuiltProducts.launch("stress", ["--computations", "10", "--loop", "--writes-per-second", "\(pace)",
                                                                   "--trace", path])
        defer { if stress.isRunning { kill(stress.processIdentifier, SIGKILL); stress.waitUntilExit() } }
        #expect(BuiltProducts.readLine(output) == "recording")
        let sources = 3  // √10 sources, each written once at set-up
        // Killed once the paced loop has written, whenever the machine let it.
        try RecordingProgress.waitForEvents(of: .changed, moreThan: sources, in: path, recordedBy: stress)
        kill(stress.processIdentifier, SIGKILL)
        stress.waitUntilExit()
        let elapsed = ContinuousClock.now - launched
        let summary = try BuiltProducts.inspect("summary", path, "--json")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(summary.stdout.utf8)) as? [String: Any])
        let changed = try #require((object["eventsByKind"] as? [String: Int])?["changed"])
        #expect(changed > sources, "the paced loop wrote")
        // Paced from its start, the loop has made at most `pace` writes a second
        // (plus the one due at once), each changing its source and at most the
        // 10 computations; unpaced, it writes thousands a second.
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        let writes = Int((Double(pace) * seconds).rounded(.up)) + 1
        #expect(changed <= sources + writes * 11, "\(changed) changed events in \(elapsed)")
    }

}
