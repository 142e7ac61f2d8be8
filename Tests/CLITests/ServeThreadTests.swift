import ReactorCore
import BuiltProducts
import Foundation
import ReactorInspectorServer
import Synchronization
import Testing

/// `serve`'s follower and web server in this process, so that `make tsan`
/// watches their threads: the follower publishing a growing trace while
/// clients on several threads read every endpoint and an event stream.
@Suite struct ServeThreadTests {
    @Test func clientsOnManyThreadsReadWhileTheFollowerPublishes() async throws {
        let path = SampleTrace.directory.appendingPathComponent("serve-threads-\(UUID().uuidString).trace").path
        defer { unlink(path) }
        // A slow writer: why, state and replay read the whole file on each request, and under ThreadSanitizer slowly.
        let (stress, output) = try BuiltProducts.launch("stress", ["--computations", "10", "--loop", "--writes-per-second", "20",
                                                                   "--trace", path])
        defer { if stress.isRunning { kill(stress.processIdentifier, SIGKILL); stress.waitUntilExit() } }
        #expect(BuiltProducts.readLine(output) == "recording")

        let follower = TraceFollower(path: path, interval: 0.02)
        try follower.readFirst(budget: 0.05)
        let shared = Shared()
        follower.start { error in shared.failure.withLock { $0 = error.description } }
        let server = try InspectorServer(follower: follower, host: "127.0.0.1", port: 0)
        let serving = Thread { _ = server.run { url in shared.address.withLock { $0 = url } } }
        serving.start()
        let port = try await Self.port(of: shared)
        let http = LoopbackHTTP(port: port)

        // Clients block on sockets: they run on threads of their own, so that the
        // server's tasks keep the whole cooperative pool.
        let received = await Self.onThread {
            // The questions below name effect0 and a moment 1 ms in: first the trace must hold them
            // (the recorder writes its first chunks after "recording", later on a loaded machine).
            let deadline = Date().addingTimeInterval(30)
            while Date() < deadline, (try? http.get("/api/why?node=effect0&limit=1").status) != 200
                                     || (try? http.get("/api/state?at=1ms").status) != 200 {
                usleep(20_000)
            }
            // Each reader sees the trace grow (or stay), never shrink, and every endpoint answer.
            // The same why on several threads at once shares a pass (QuestionBoard); progress is read meanwhile.
            let targets = ["/", "/api/snapshot", "/api/graph", "/api/why?node=effect0&limit=2",
                           "/api/state?at=1ms", "/api/replay?filter=kind:rerun-begin&limit=3", "/api/progress",
                           "/api/why?node=effect0&limit=2", "/api/timeline?width=50"]
            DispatchQueue.concurrentPerform(iterations: 4) { reader in
                var seen = 0
                for round in 0..<3 {
                    for target in ["/api/summary", targets[(reader * 3 + round) % targets.count]] {
                        do {
                            let answer = try http.get(target)
                            guard answer.status == 200 else {
                                shared.problems.withLock { $0.append("\(target): status \(answer.status) \(answer.text.prefix(200))") }
                                continue
                            }
                            guard target == "/api/summary" else { continue }
                            let events = try answer.json()["events"] as? Int ?? -1
                            if events < seen { shared.problems.withLock { $0.append("summary went from \(seen) to \(events) events") } }
                            seen = events
                        } catch {
                            shared.problems.withLock { $0.append("\(target): \(error)") }
                        }
                    }
                }
            }
            // Askers that leave before their answer: their passes are cancelled (a thread of the server sets the flag).
            for node in 0..<3 {
                guard let socket = try? http.connect() else { continue }
                try? http.send(socket, "GET /api/why?node=effect\(node + 1) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                usleep(20_000)
                close(socket)
            }
            // An event stream receives its first update and then later ones.
            guard let (socket, first) = try? http.openStream() else { return "" }
            var received = first
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while received.components(separatedBy: "event: update").count < 3 {
                let count = recv(socket, &buffer, buffer.count, 0)
                guard count > 0 else { break }
                received += String(decoding: buffer[0..<count], as: UTF8.self)
            }
            close(socket)
            return received
        }

        let published = follower.current
        follower.stop()
        await server.stop()
        #expect(shared.problems.withLock { $0 } == [])
        #expect(shared.failure.withLock { $0 } == nil)
        #expect(received.components(separatedBy: "event: update").count >= 3, "two updates after the first; follower at version \(published.version), \(published.status)")
        #expect(follower.subscriberCount == 0)
    }

    /// What the server's, the follower's and the readers' threads report.
    private final class Shared: Sendable {
        let address = LockedValue<String?>(nil)
        let failure = LockedValue<String?>(nil)
        let problems = LockedValue<[String]>([])
    }

    /// `body`'s result, computed on a new thread.
    private static func onThread(_ body: @escaping @Sendable () -> String) async -> String {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: body()) }.start()
        }
    }

    /// The port `run` reports once it listens, within ten seconds.
    private static func port(of shared: Shared) async throws -> UInt16 {
        for _ in 0..<1_000 {
            if let url = shared.address.withLock({ $0 }) {
                let digits = url.split(separator: ":").last.map { $0.filter { $0.isNumber } } ?? ""
                guard let port = UInt16(digits) else { throw LoopbackHTTP.Failure(message: "no port in \(url)") }
                return port
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw LoopbackHTTP.Failure(message: "the server did not listen within 10 s")
    }
}
