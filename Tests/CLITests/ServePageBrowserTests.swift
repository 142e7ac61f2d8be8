import BuiltProducts
import Foundation
import Testing
import ReactorInspector

/// Debian's headless Chromium, driven by Selenium (`make browser` installs
/// both; `REACTOR_BROWSER_PYTHON` names another Python with Selenium).
enum HeadlessBrowser {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let script = root.appendingPathComponent("Tests/BrowserTests/serve_page.py").path
    static let chromium = "/usr/bin/chromium"
    static let driver = "/usr/bin/chromedriver"
    static let python: String? = {
        let environment = ProcessInfo.processInfo.environment
        let candidates: [String?] = [environment["REACTOR_BROWSER_PYTHON"], root.appendingPathComponent(".build/browser-venv/bin/python").path]
        return candidates.compactMap { $0 }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()
    static let isAvailable = python != nil && FileManager.default.isExecutableFile(atPath: chromium)
        && FileManager.default.isExecutableFile(atPath: driver)
    /// `make test` sets REACTOR_REQUIRE_BROWSER=1: there a missing browser fails instead of skipping.
    static let required = ProcessInfo.processInfo.environment["REACTOR_REQUIRE_BROWSER"] == "1"

    /// Runs the page script with `arguments`: its exit status and the JSON it printed.
    static func drive(_ arguments: [String]) throws -> (status: Int32, report: [String: Any], output: String) {
        let python = try #require(python, "no Python with Selenium: run `make browser`")
        try #require(FileManager.default.isExecutableFile(atPath: chromium), "no \(chromium): run `make browser`")
        try #require(FileManager.default.isExecutableFile(atPath: driver), "no \(driver): run `make browser`")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [script, "--chromium", chromium, "--driver", driver] + arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        let last = text.split(separator: "\n").last.map(String.init) ?? ""
        let report = (try? JSONSerialization.jsonObject(with: Data(last.utf8))) as? [String: Any] ?? [:]
        return (process.terminationStatus, report, text)
    }
}

/// The page of `serve` in a real browser: it draws the sample's nodes, its
/// figures move while the app records, and hostile names stay text.
@Suite(.serialized, .enabled(if: HeadlessBrowser.isAvailable || HeadlessBrowser.required,
                            "no headless Chromium with Selenium: `make browser` installs them (make test does)"))
struct ServePageBrowserTests {
    @Test func thePageShowsTheNodesAndItsCountsGrowWhileTheAppRecords() throws {
        // The same graph as the finished sample's (same size and seed): its computations are the names to look for.
        let names = try SampleTrace.stress.get().reruns.keys.sorted()
        let path = SampleTrace.directory.appendingPathComponent("serve-browser-\(UUID().uuidString).trace").path
        defer { unlink(path) }
        // Paced: the why panel's pass reads the whole trace as it stands, and an
        // unpaced debug loop writes millions of events while the page loads.
        let (stress, output) = try BuiltProducts.launch("stress", ["--computations", "60", "--loop",
                                                                   "--writes-per-second", "200", "--trace", path])
        defer { if stress.isRunning { kill(stress.processIdentifier, SIGKILL); stress.waitUntilExit() } }
        #expect(BuiltProducts.readLine(output) == "recording")
        let server = try InspectorClient(trace: path)
        let screenshot = SampleTrace.directory.appendingPathComponent("serve-page.png").path
        // Clicking a node explains it: the why panel lists its causes.
        let focus = try #require(names.first { $0.hasPrefix("effect") })
        let run = try HeadlessBrowser.drive(["--url", "http://127.0.0.1:\(server.port)/", "--grows", "--screenshot", screenshot,
                                             "--focus", focus] + names.flatMap { ["--name", $0] })
        #expect(run.status == 0, "\(run.output)")
        let seen = run.report["seen"] as? [String: Any] ?? [:]
        #expect((seen["graphNodes"] as? Int ?? 0) >= names.count, "\(run.output)")
        let first = try #require(seen["eventsFirst"] as? Int, "\(run.output)")
        let later = try #require(seen["eventsLater"] as? Int, "\(run.output)")
        #expect(later > first)
        #expect((seen["whySteps"] as? Int ?? 0) > 0, "\(run.output)")
        let png = try Data(contentsOf: URL(fileURLWithPath: screenshot))
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]), "a PNG screenshot")
    }

    /// The page writes an action's call, duration and trace time as `top`
    /// and every other view do (DurationText), from the same figures.
    @Test func actionsReadAsTheCommandLineWritesThem() throws {
        let trace = try SampleTrace.todos.get()
        let server = try InspectorClient(trace: trace.path)
        let run = try HeadlessBrowser.drive(["--url", "http://127.0.0.1:\(server.port)/", "--actions"])
        #expect(run.status == 0, "\(run.output)")
        let shown = (run.report["seen"] as? [String: Any])?["actions"] as? [[String: String]] ?? []
        #expect(!shown.isEmpty, "\(run.output)")
        let top = try BuiltProducts.inspect("top", trace.path, "--json")
        let snapshot = try #require(try JSONSerialization.jsonObject(with: Data(top.stdout.utf8)) as? [String: Any])
        let actions = try #require(snapshot["actions"] as? [[String: Any]])
        for action in actions {
            let ordinal = try #require(action["ordinal"] as? Int)
            guard let row = shown.first(where: { $0["ordinal"] == "#\(ordinal)" }) else {
                Issue.record("action #\(ordinal) is not on the page: \(shown)")
                continue
            }
            let name = try #require(action["name"] as? String), arguments = action["arguments"] as? String ?? ""
            let at = try #require((action["atNanoseconds"] as? NSNumber)?.uint64Value)
            let duration = try #require((action["durationNanoseconds"] as? NSNumber)?.uint64Value)
            #expect(row["name"] == (arguments.isEmpty ? name : "\(name) \(arguments)"))
            #expect(row["detail"] == "  \(DurationText.format(duration)) at \(DurationText.formatTime(at))")
        }
    }

    @Test func hostileNamesShowAsTextAndRunNothing() throws {
        let server = try InspectorClient(trace: try HostileNamesTests.trace.get())
        let run = try HeadlessBrowser.drive(["--url", "http://127.0.0.1:\(server.port)/",
                                             "--name", HostileTrace.computation, "--hostile", HostileTrace.store,
                                             "--hostile", HostileTrace.computed, "--action", "2"])
        #expect(run.status == 0, "\(run.output)")
        #expect((run.report["failures"] as? [String])?.isEmpty == true, "\(run.output)")
        // Time travel on the page: the state after action 2 lists the nodes alive then.
        #expect(((run.report["seen"] as? [String: Any])?["stateRows"] as? Int ?? 0) >= 5, "\(run.output)")
    }
}
