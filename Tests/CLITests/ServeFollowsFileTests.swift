import BuiltProducts
import Foundation
import ReactorInspectorServer
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `serve` and `top` show the file as it is now: another recording written
/// over it is the one shown, and a removed one is said to be removed.
@Suite struct ServeFollowsFileTests {
    /// A copy of `source` at a fresh path of the test folder.
    static func copy(_ source: String) throws -> String {
        let path = SampleTrace.directory.appendingPathComponent("follow-\(UUID().uuidString).trace").path
        try FileManager.default.copyItem(atPath: source, toPath: path)
        return path
    }

    /// Asks `server` for `target` until `accept` takes the answer, for up to `seconds`; the last answer.
    static func wait(for target: String, on server: InspectorClient, seconds: Double = 5,
                     until accept: (InspectorClient.Response) -> Bool) throws -> InspectorClient.Response {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        var answer = try server.get(target)
        while !accept(answer), ContinuousClock.now < deadline {
            usleep(100_000)
            answer = try server.get(target)
        }
        return answer
    }

    @Test func aTraceReplacedByAnotherRecordingIsServedAsTheNewOne() throws {
        let path = try Self.copy(try SampleTrace.counter.get().path)
        defer { unlink(path) }
        let server = try InspectorClient(trace: path)
        let before = try BuiltProducts.inspect("summary", path, "--json").stdout
        #expect(try server.get("/api/summary").text == before)
        // A restarted app recreates the file: another inode with another recording.
        let replacement = path + ".new"
        try FileManager.default.copyItem(atPath: try SampleTrace.todos.get().path, toPath: replacement)
        #expect(rename(replacement, path) == 0)
        let after = try BuiltProducts.inspect("summary", path, "--json").stdout
        #expect(after != before)
        let served = try Self.wait(for: "/api/summary", on: server) { $0.text == after }
        #expect(served.text == after)
        // A moment's state now comes from the new recording (its own live index), as `state` gives it.
        let state = try #require(try JSONSerialization.jsonObject(
            with: Data(BuiltProducts.inspect("state", path, "--at", "action:2", "--json", "--no-index").stdout.utf8)) as? [[String: Any]])
        let answer = try server.get("/api/state?at=action:2")
        #expect(answer.status == 200, "\(answer.text.prefix(200))")
        let entries = try #require(try answer.json()["entries"] as? [[String: Any]])
        #expect(entries.map { $0["name"] as? String } == state.map { $0["name"] as? String })
        #expect(entries.map { $0["value"] as? String } == state.map { $0["value"] as? String })
    }

    @Test func aTraceRewrittenInPlaceIsServedAsTheNewOne() throws {
        let path = try Self.copy(try SampleTrace.counter.get().path)
        defer { unlink(path) }
        let server = try InspectorClient(trace: path)
        #expect(try server.get("/api/summary").status == 200)
        // The same inode, truncated and written again (a longer recording: its size alone does not tell).
        let bytes = try Data(contentsOf: URL(fileURLWithPath: try SampleTrace.stress.get().path))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: bytes)
        try handle.close()
        let after = try BuiltProducts.inspect("summary", path, "--json").stdout
        let served = try Self.wait(for: "/api/summary", on: server) { $0.text == after }
        #expect(served.text == after)
    }

    @Test func aRemovedTraceIsSaidToBeRemoved() throws {
        let path = try Self.copy(try SampleTrace.counter.get().path)
        defer { unlink(path) }
        let server = try InspectorClient(trace: path)
        let updates = try server.updates()
        _ = try updates.next(before: .now + .seconds(10))
        #expect(unlink(path) == 0)
        let served = try Self.wait(for: "/api/summary", on: server) { $0.status == 503 }
        #expect(served.status == 503)
        #expect(try served.json()["error"] as? String == "the trace was removed: waiting for a new recording at \(path)")
        // The page hears it on its event stream.
        var update = try updates.next(before: .now + .seconds(10))
        while (update["snapshot"] as? [String: Any])?["status"] as? String != "waiting" {
            update = try updates.next(before: .now + .seconds(10))
        }
        #expect(((update["snapshot"] as? [String: Any])?["statusDetail"] as? String)?.contains("the trace was removed") == true)
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
    func topSaysARemovedTraceWasRemovedAndShowsTheNextRecording() throws {
        let path = try Self.copy(try SampleTrace.counter.get().path)
        defer { unlink(path) }
        let todos = try SampleTrace.todos.get().path
        let binary = try BuiltProducts.path(of: "reactor-inspect")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        // Removed after a second, a new recording a second later, then q.
        let typist = "sleep 1; rm '\(path)'; sleep 1; cp '\(todos)' '\(path)'; sleep 1.2; printf q; sleep 5"
        process.arguments = ["-c", "(\(typist)) | timeout -s KILL 60 script -qefc \"\(binary) top \(path) --interval 0.2\" /dev/null"]
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        process.environment = environment
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let screen = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let removed = try #require(screen.range(of: "the trace was removed"), "\(screen.suffix(2000))")
        // After it: the todos sample's computations, which the counter sample does not have.
        #expect(screen[removed.upperBound...].contains("remainingCount"), "\(screen.suffix(2000))")
        #expect(!screen[..<removed.lowerBound].contains("remainingCount"))
    }

    @Test func aLoopbackHostOtherThan127001AnswersItsOwnAddress() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try BuiltProducts.path(of: "reactor-inspect"))
        process.arguments = ["serve", try SampleTrace.counter.get().path, "--port", "0", "--host", "127.0.0.2"]
        let out = Pipe(), errors = Pipe()
        process.standardOutput = out
        process.standardError = errors
        try process.run()
        defer { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() }
        let line = BuiltProducts.readLine(out.fileHandleForReading) ?? ""
        let range = try #require(line.range(of: #"http://127\.0\.0\.2:[0-9]+/"#, options: .regularExpression), "\(line)")
        let port = try #require(UInt16(line[range].dropFirst("http://127.0.0.2:".count).dropLast()))
        let http = LoopbackHTTP(port: port, address: "127.0.0.2")
        #expect(try http.get("/api/summary").status == 200)
        #expect(try http.request("/api/summary", host: "localhost:\(port)").status == 200)
        #expect(try http.request("/api/summary", host: "example.com:\(port)").status == 403)
    }

    @Test func anIPv4MappedLoopbackAddressIsLoopback() throws {
        #expect(InspectorServer.isLoopback("::ffff:127.0.0.1"))
        #expect(InspectorServer.isLoopback("::FFFF:7f00:1"))
        #expect(InspectorServer.isLoopback("0:0:0:0:0:0:0:1"))
        #expect(InspectorServer.isLoopback("127.1.2.3"))
        #expect(!InspectorServer.isLoopback("::ffff:10.0.0.1"))
        #expect(!InspectorServer.isLoopback("10.0.0.1"))
        #expect(!InspectorServer.isLoopback("::"))
        // Served there, it warns of nothing and keeps refusing other sites' names.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try BuiltProducts.path(of: "reactor-inspect"))
        process.arguments = ["serve", try SampleTrace.counter.get().path, "--port", "0", "--host", "::ffff:127.0.0.1"]
        let out = Pipe(), errors = Pipe()
        process.standardOutput = out
        process.standardError = errors
        try process.run()
        let line = BuiltProducts.readLine(out.fileHandleForReading) ?? ""
        let port = try #require(line.split(separator: ":").last.flatMap { UInt16($0.prefix { $0.isNumber }) }, "\(line)")
        // The mapped address is 127.0.0.1 seen from IPv4.
        let http = LoopbackHTTP(port: port)
        #expect(try http.get("/api/summary").status == 200)
        #expect(try http.request("/api/summary", host: "[::ffff:127.0.0.1]:\(port)").status == 200)
        #expect(try http.request("/api/summary", host: "rebound.example:\(port)").status == 403)
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        let warnings = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(!warnings.contains("other machines"), "\(warnings)")
    }
}
