import BuiltProducts
import Foundation
import Testing

/// `reactor-inspect top`: one snapshot on a finished sample, snapshots of a
/// trace that grows, waiting for a trace that is not there yet, the terminal
/// given back on `q` and on Ctrl-C, and bad input.
@Suite struct TopCommandTests {
    static func snapshot(_ run: BuiltProducts.Run) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
    }

    @Test func snapshotOfAFinishedSampleShowsItsComputationsAndCounts() throws {
        let trace = try SampleTrace.todos.get()
        let text = try BuiltProducts.inspect("top", trace.path)
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("finished"))
        #expect(!text.stdout.contains("\u{1B}"), "no colour on a non-terminal stdout")
        for name in trace.reruns.keys { #expect(text.stdout.contains(name), "\(name)") }
        #expect(text.stdout.contains("Recent actions"))
        #expect(text.stdout.contains("TodoStore.addTodo"))

        let json = try Self.snapshot(try BuiltProducts.inspect("top", trace.path, "--json", "--top", "100"))
        #expect(json["status"] as? String == "finished")
        let hot = try #require(json["hot"] as? [[String: Any]])
        var reruns: [String: Int] = [:]
        for row in hot { reruns[row["name"] as? String ?? ""] = row["reruns"] as? Int }
        for (name, count) in trace.reruns { #expect(reruns[name] == count, "\(name)") }
        let actions = try #require(json["actions"] as? [[String: Any]])
        #expect(!actions.isEmpty)
        #expect(actions.contains { ($0["changed"] as? [String])?.contains("TodoStore.todos") == true })
    }

    /// One clock for every view: an action's time in top is the time replay
    /// prints for its begin (trace time), not a time from the first event.
    @Test func actionTimesAreReplaysTraceTimes() throws {
        let trace = try SampleTrace.todos.get()
        let json = try Self.snapshot(try BuiltProducts.inspect("top", trace.path, "--json"))
        let actions = try #require(json["actions"] as? [[String: Any]])
        let replay = try BuiltProducts.inspect("replay", trace.path, "--json", "--filter", "action-begin")
        #expect(replay.status == 0, "\(replay.stderr)")
        let begins = Set(replay.stdout.split(separator: "\n").compactMap { line -> UInt64? in
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            return (object?["timeNanoseconds"] as? NSNumber)?.uint64Value
        })
        #expect(!actions.isEmpty && !begins.isEmpty)
        for action in actions {
            let time = try #require((action["atNanoseconds"] as? NSNumber)?.uint64Value)
            #expect(begins.contains(time), "top's action at \(time) ns is no action-begin of replay")
        }
    }

    @Test func snapshotsOfAGrowingTraceCountMoreEvents() throws {
        let path = SampleTrace.directory.appendingPathComponent("top-growing-\(UUID().uuidString).trace").path
        defer { unlink(path) }
        // Paced (about 100 kB a second): unpaced, a debug loop writes megabytes a second, and each
        // `top` read millions of events of a file that had grown far past the chunk waited for.
        let (stress, output) = try BuiltProducts.launch("stress", ["--computations", "60", "--loop",
                                                                   "--writes-per-second", "200", "--trace", path])
        defer { if stress.isRunning { kill(stress.processIdentifier, SIGKILL); stress.waitUntilExit() } }
        #expect(BuiltProducts.readLine(output) == "recording")
        // Each snapshot reads the file as it is when top starts: the first once it
        // holds a whole chunk, the second once it holds one past what the first saw.
        try RecordingProgress.waitForChunk(in: path, past: 44, recordedBy: stress)  // the header's 44 bytes
        let first = try Self.snapshot(try BuiltProducts.inspect("top", path, "--json"))
        try RecordingProgress.waitForChunk(in: path, past: RecordingProgress.fileSize(path), recordedBy: stress)
        let second = try Self.snapshot(try BuiltProducts.inspect("top", path, "--json"))
        #expect(first["status"] as? String == "recording")
        let before = try #require(first["events"] as? Int)
        let after = try #require(second["events"] as? Int)
        #expect(before > 0)
        #expect(after > before)
        #expect((second["hot"] as? [[String: Any]])?.isEmpty == false)
    }

    @Test func aTraceThatIsNotThereYetIsWaitedFor() throws {
        let directory = SampleTrace.directory.appendingPathComponent("top-wait-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("later.trace").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try BuiltProducts.path(of: "reactor-inspect"))
        // Plain `top` (its output a pipe here: one snapshot once the trace is there).
        process.arguments = ["top", path]
        let errors = Pipe(), out = Pipe()
        process.standardError = errors
        process.standardOutput = out
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        let line = BuiltProducts.readLine(errors.fileHandleForReading) ?? ""
        #expect(line.contains("waiting for \(path) to appear"), "\(line)")
        #expect(process.isRunning)
        // The trace appears whole (renamed into place): the snapshot shows it and top exits 0.
        let sample = try SampleTrace.counter.get()
        try FileManager.default.copyItem(atPath: sample.path, toPath: path + ".part")
        #expect(rename(path + ".part", path) == 0)
        let printed = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(String(decoding: printed, as: UTF8.self).contains("finished"))
    }

    /// `--once` and `--json` ask for one snapshot now: a missing file (a typo in a
    /// CI script) is one line and status 2, not a wait forever.
    @Test(arguments: [["--once"], ["--json"], ["--once", "--json"]])
    func oneSnapshotOfAMissingFileIsOneLineAndStatusTwo(flags: [String]) throws {
        let path = SampleTrace.directory.appendingPathComponent("missing-\(UUID().uuidString).trace").path
        // A guard against the wait that never ended, not a measure of time.
        let run = try #require(try BuiltProducts.run("reactor-inspect", ["top", path] + flags, within: 30))
        #expect(run.status == 2)
        #expect(run.stderrLines == ["reactor-inspect: error: cannot read \(path): No such file or directory"])
        #expect(run.stdout.isEmpty)
    }

    @Test func aForeignFileIsOneLineAndStatusTwo() throws {
        let path = SampleTrace.directory.appendingPathComponent("foreign-\(UUID().uuidString).txt").path
        defer { unlink(path) }
        try Data("not a trace at all, just text\n".utf8).write(to: URL(fileURLWithPath: path))
        let result = try BuiltProducts.inspect("top", path)
        #expect(result.status == 2)
        #expect(result.stderrLines.count == 1)
        #expect(result.stderr.contains("not a Reactor trace"))
        #expect(result.stdout.isEmpty)
    }

    /// A file that stopped inside its header is not a recording starting:
    /// after a moment's wait, one line and status 2, not a wait forever.
    @Test func aHeaderCutShortIsOneLineAndStatusTwo() throws {
        let sample = try SampleTrace.counter.get()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: sample.path))
        let path = SampleTrace.directory.appendingPathComponent("short-\(UUID().uuidString).trace").path
        defer { unlink(path) }
        try bytes.prefix(25).write(to: URL(fileURLWithPath: path))
        for arguments in [["--once"], ["--json"]] {
            // A guard against the wait that never ended, not a measure of time.
            let result = try #require(try BuiltProducts.run("reactor-inspect", ["top", path] + arguments, within: 120))
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stderrLines.count == 1, "\(result.stderr)")
            #expect(result.stderr.contains("truncated inside its header"), "\(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
    }

    /// Runs `top` on a pseudo-terminal (util-linux `script`), typing `keys` after `delay` seconds.
    static func onTerminal(_ arguments: String, keys: String, delay: Double,
                           environment: [String: String] = [:]) throws -> (status: Int32, screen: String) {
        let binary = try BuiltProducts.path(of: "reactor-inspect")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        let typist = "sleep \(delay); printf '\(keys)'; sleep 5"
        process.arguments = ["-c", "(\(typist)) | timeout -s KILL 60 script -qefc \"\(binary) top \(arguments)\" /dev/null"]
        var merged = ProcessInfo.processInfo.environment
        merged["NO_COLOR"] = nil
        for (key, value) in environment { merged[key] = value }
        process.environment = merged
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
    func onATerminalQuitsOnQAndGivesTheScreenBack() throws {
        let trace = try SampleTrace.todos.get()
        let run = try Self.onTerminal("\(trace.path) --interval 0.2", keys: "q", delay: 1.5)
        #expect(run.status == 0)
        #expect(run.screen.contains("\u{1B}[?1049h"), "alternate screen entered")
        #expect(run.screen.contains("final state; q to quit"))
        #expect(run.screen.contains("\u{1B}[1m"), "colours on a terminal")
        #expect(run.screen.hasSuffix("\u{1B}[?25h\u{1B}[?1049l"), "cursor and screen given back last")
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
    func noColorIsHonouredAndCtrlCGivesTheScreenBack() throws {
        let trace = try SampleTrace.todos.get()
        let run = try Self.onTerminal("\(trace.path) --interval 0.2", keys: "\\003", delay: 1.5,
                                      environment: ["NO_COLOR": "1"])
        #expect(run.status == 130, "exit status 128 + SIGINT")
        #expect(run.screen.contains("Hot computations"))
        #expect(!run.screen.contains("\u{1B}[1m"))
        #expect(!run.screen.contains("\u{1B}[31m"))
        #expect(run.screen.hasSuffix("\u{1B}[?25h\u{1B}[?1049l"), "cursor and screen given back last")
    }
}
