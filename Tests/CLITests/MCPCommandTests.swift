import BuiltProducts
import Foundation
import Testing

/// The Python with the official `mcp` client (`make mcp-client` sets it up in
/// .build/mcp-venv; `REACTOR_MCP_PYTHON` names another), and the client script.
enum MCPClient {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let script = root.appendingPathComponent("Tests/MCPClient/mcp_client.py").path
    static let python: String? = {
        let environment = ProcessInfo.processInfo.environment
        let candidates: [String?] = [environment["REACTOR_MCP_PYTHON"], root.appendingPathComponent(".build/mcp-venv/bin/python").path]
        return candidates.compactMap { $0 }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()
    /// `make test` sets REACTOR_REQUIRE_MCP=1: there a missing client fails instead of skipping.
    static let required = ProcessInfo.processInfo.environment["REACTOR_REQUIRE_MCP"] == "1"
}

/// A running `reactor-inspect mcp`, spoken to one JSON-RPC line at a time.
final class MCPSession {
    let process = Process()
    let input = Pipe(), output = Pipe()
    private let watchdog: DispatchWorkItem

    init() throws {
        process.executableURL = URL(fileURLWithPath: try BuiltProducts.path(of: "reactor-inspect"))
        process.arguments = ["mcp"]
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Bounded: a server that stops answering fails the test instead of hanging it.
        let process = self.process
        watchdog = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 60, execute: watchdog)
    }

    deinit {
        watchdog.cancel()
        if process.isRunning { process.terminate() }
    }

    func send(_ line: String) {
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    /// The response with `id`, skipping other messages; nil when the server ended.
    func response(id: Int) -> [String: Any]? {
        while let line = BuiltProducts.readLine(output.fileHandleForReading) {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { continue }
            if (object["id"] as? NSNumber)?.intValue == id { return object }
        }
        return nil
    }

    func call(id: Int, _ tool: String, _ arguments: [String: Any]) throws -> [String: Any]? {
        let request: [String: Any] = ["jsonrpc": "2.0", "id": id, "method": "tools/call",
                                      "params": ["name": tool, "arguments": arguments]]
        send(String(decoding: try JSONSerialization.data(withJSONObject: request), as: UTF8.self))
        return response(id: id)?["result"] as? [String: Any]
    }
}

@Suite struct MCPCommandTests {
    static func budget() throws -> String {
        let path = try CICommand.temporaryDirectory().appendingPathComponent("mcp-budget.json").path
        try Data(#"{"computations": [{"match": "list", "maxReruns": 5}]}"#.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The official Python client: every tool answers what the CLI's --json answers, bad arguments are error results.
    @Test(.enabled(if: MCPClient.python != nil || MCPClient.required,
                   "no Python with the mcp client: `make mcp-client` installs it (make test does)"))
    func theOfficialClientGetsTheCLIsAnswers() throws {
        let python = try #require(MCPClient.python, "no Python with the mcp client: run `make mcp-client`")
        let trace = try SampleTrace.todos.get()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [MCPClient.script, try BuiltProducts.path(of: "reactor-inspect"), trace.path, try Self.budget()]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(stdout)\n\(stderr.suffix(2000))")
        #expect(stdout.hasPrefix("ok: "), "\(stdout)")
    }

    /// Garbage, a wrong request and bad tool arguments get answers; the server goes on.
    @Test func garbageNeverKillsTheServer() throws {
        let trace = try SampleTrace.counter.get()
        let session = try MCPSession()
        session.send("this is not JSON")
        session.send(#"{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}}}"#)
        let initialized = try #require(session.response(id: 1)?["result"] as? [String: Any])
        #expect((initialized["serverInfo"] as? [String: Any])?["name"] as? String == "reactor-inspect")
        session.send(#"{"jsonrpc": "2.0", "method": "notifications/initialized"}"#)
        session.send("{\"jsonrpc\": \"2.0\", \"id\": 2, \"method\": \"no/such/method\"}")
        #expect(session.response(id: 2)?["error"] != nil)
        session.send(String(repeating: "[", count: 100_000))
        session.send("\u{0}\u{1}\u{2}")
        for (id, arguments) in [(3, ["trace": 42]), (4, ["trace": trace.path, "top": -3]), (5, ["trace": trace.path, "by": "nonsense"]),
                                (6, ["trace": "/nonexistent.trace"]), (7, [:] as [String: Any])] as [(Int, [String: Any])] {
            let result = try #require(try session.call(id: id, "hot", arguments), "no answer to \(arguments)")
            #expect(result["isError"] as? Bool == true, "\(arguments)")
        }
        let hot = try #require(try session.call(id: 8, "hot", ["trace": trace.path, "top": 1]))
        #expect(hot["isError"] as? Bool == false)
        let text = try #require((hot["content"] as? [[String: Any]])?.first?["text"] as? String)
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
        #expect(entries.first?["name"] as? String == "label")
        #expect(entries.first?["reruns"] as? Int == 100)
    }
}
