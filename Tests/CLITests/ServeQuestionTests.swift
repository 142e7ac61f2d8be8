import BuiltProducts
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `serve`'s questions that read the trace: their progress, one pass per
/// question, a bound per kind, and a client that leaves stops its pass.
@Suite(.serialized) struct ServeQuestionTests {
    /// The passes `/api/progress` lists.
    static func passes(_ server: InspectorClient) throws -> [[String: Any]] {
        try server.get("/api/progress").json()["passes"] as? [[String: Any]] ?? []
    }

    /// Waits (at most `seconds`) until `check` holds for the listed passes; the time waited, or nil.
    static func wait(_ server: InspectorClient, seconds: Double,
                     until check: ([[String: Any]]) -> Bool) throws -> Double? {
        let start = ContinuousClock.now
        while ContinuousClock.now - start < .milliseconds(Int(seconds * 1000)) {
            if check(try passes(server)) {
                let waited = ContinuousClock.now - start
                return Double(waited.components.seconds) + Double(waited.components.attoseconds) / 1e18
            }
            usleep(20_000)
        }
        return nil
    }

    /// A server that has read the whole long trace.
    static func server() throws -> (InspectorClient, events: Int) {
        let trace = try SampleTrace.stressLong.get()
        let server = try InspectorClient(trace: trace.path, ["--no-index"])
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            if let top = try? server.get("/api/snapshot").json(), top["status"] as? String == "finished" {
                return (server, top["events"] as? Int ?? 0)
            }
            usleep(100_000)
        }
        throw LoopbackHTTP.Failure(message: "serve did not read the trace within a minute")
    }

    /// Sends `GET target` on a connection of its own and returns the socket (the answer unread).
    static func ask(_ server: InspectorClient, _ target: String) throws -> Int32 {
        let socket = try server.http.connect()
        try server.http.send(socket, "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        return socket
    }

    @Test func aClientThatLeavesStopsItsPassAndTheSameQuestionSharesOne() throws {
        let (server, events) = try Self.server()
        #expect(events > 1_000_000)
        let asked = ContinuousClock.now
        let first = try Self.ask(server, "/api/why?node=effect3")
        let second = try Self.ask(server, "/api/why?node=effect3")
        // Its progress: the events read so far of the events its pass reads.
        var seen: [String: Any] = [:]
        let started = try Self.wait(server, seconds: 20) { passes in
            guard let pass = passes.first(where: { $0["kind"] as? String == "why" }),
                  pass["started"] as? Bool == true, (pass["eventsRead"] as? Int ?? 0) > 0 else { return false }
            seen = pass
            return true
        }
        #expect(started != nil, "the question's pass shows in /api/progress")
        #expect(seen["subject"] as? String == "effect3")
        #expect(seen["events"] as? Int == events)
        let running = ContinuousClock.now - asked
        let readAtClose = seen["eventsRead"] as? Int ?? 0
        #expect(try Self.passes(server).count == 1, "one pass for the same question asked twice")
        #expect(readAtClose < events / 2, "still early in the pass")
        // Both askers leave: the pass stops well before it could have read the rest.
        close(first)
        close(second)
        let gone = try Self.wait(server, seconds: 20) { $0.isEmpty }
        let waited = try #require(gone, "the pass ended")
        let ran = Double(running.components.seconds) + Double(running.components.attoseconds) / 1e18
        #expect(waited < max(0.5, ran), "stopped in \(waited) s, after running \(ran) s for \(readAtClose) of \(events) events")
        // The worker is free: the next question starts at once.
        let next = try Self.ask(server, "/api/why?node=effect5")
        defer { close(next) }
        #expect(try Self.wait(server, seconds: 2) { passes in
            passes.contains { $0["subject"] as? String == "effect5" && $0["started"] as? Bool == true }
        } != nil, "the next question's pass began")
    }

    @Test func aKindHoldsAFewQuestionsAtOnceAndRefusesMore() throws {
        let (server, _) = try Self.server()
        var sockets: [Int32] = []
        defer { for socket in sockets { close(socket) } }
        for node in 0..<4 { sockets.append(try Self.ask(server, "/api/why?node=effect\(node)")) }
        #expect(try Self.wait(server, seconds: 20) { $0.count == 4 } != nil, "four questions wait or run")
        let refused = try server.get("/api/why?node=effect9")
        #expect(refused.status == 503, "\(refused.text)")
        #expect(refused.text.contains("ask again when one is answered"))
        // Another kind is not held up by them.
        let state = try server.get("/api/state?at=action:1")
        #expect(state.status == 200 || state.status == 404, "\(state.text.prefix(200))")
        for socket in sockets { close(socket) }
        sockets = []
        #expect(try Self.wait(server, seconds: 10) { $0.isEmpty } != nil, "every pass stopped once its asker left")
    }

    /// `action:N` past the actions read is refused without a pass, as the pass refuses it.
    @Test func anActionBeyondTheActionsReadIsRefusedAsStateRefusesIt() throws {
        let trace = try SampleTrace.todos.get()
        let server = try InspectorClient(trace: trace.path)
        let cli = try BuiltProducts.inspect("state", trace.path, "--at", "action:999", "--no-index")
        #expect(cli.status == 2)
        let answer = try server.get("/api/state?at=action:999")
        #expect(answer.status == 404)
        let message = try #require(try answer.json()["error"] as? String)
        #expect(!message.isEmpty && cli.stderr.contains(message), "\(message) / \(cli.stderr)")
        #expect(message.hasPrefix("--at action:999: the trace has "))
    }
}
