import BuiltProducts
import Foundation
import ReactorTrace
import Testing

/// Recordings that end and stay bounded, on the `stress` sample in a process of its own:
/// SIGINT and SIGTERM write the end block and then end the process as the signal would;
/// `REACTOR_TRACE_MAX_BYTES` keeps the file within its bound; SIGUSR1 writes a snapshot
/// when asked for; the metadata reaches `summary`.
@Suite(.serialized) struct RecordingEndTests {
    static func fileSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
    }

    static func launchStress(trace: String, environment extra: [String: String] = [:]) throws
        -> (process: Process, output: FileHandle) {
        var environment = ProcessInfo.processInfo.environment
        environment["REACTOR_TRACE"] = nil
        for (key, value) in extra { environment[key] = value }
        // A child inherits the spawning thread's signal mask, and a test's thread (a
        // dispatch worker) blocks nearly every signal: the sample must get them as an app would.
        var unblocked = sigset_t(), previous = sigset_t()
        sigemptyset(&unblocked)
        for signal in [SIGINT, SIGTERM, SIGUSR1] { sigaddset(&unblocked, signal) }
        pthread_sigmask(SIG_UNBLOCK, &unblocked, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        return try BuiltProducts.launch("stress", ["--computations", "100", "--loop", "--writes-per-second", "20000",
                                                   "--trace", trace], environment: environment)
    }

    /// Polls `condition` every 5 ms, for at most `seconds`.
    static func wait(seconds: Double, until condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            usleep(5_000)
        }
        return condition()
    }

    @Test(arguments: [SIGTERM, SIGINT])
    func aStopSignalLeavesAnEndBlockThenEndsTheProcess(signal: Int32) throws {
        let path = TraceFixtures.path("signalled")
        defer { unlink(path) }
        let (process, output) = try Self.launchStress(trace: path)
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        #expect(BuiltProducts.readLine(output) == "recording")
        #expect(Self.wait(seconds: 30) { Self.fileSize(path) > 64 << 10 })
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal, "the default action ran after the end block")
        #expect(process.terminationStatus == signal)

        let reader = try TraceReader(path: path)
        _ = try reader.skipToEnd()
        #expect(reader.truncation == nil)
        #expect(reader.end?.termination == .signal(signal))
        let summary = try BuiltProducts.inspect("summary", path)
        #expect(summary.status == 0, "\(summary.stderr)")
        #expect(summary.stdout.contains("signal \(signal) (\(signal == SIGTERM ? "SIGTERM" : "SIGINT"))"))
        let json = try BuiltProducts.inspect("summary", path, "--json")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["ending"] as? String == "signal \(signal == SIGTERM ? "SIGTERM" : "SIGINT")")
        let metadata = try #require(object["metadata"] as? [String: String])
        #expect(metadata["scenario"] == "stress", "the executable's name when REACTOR_TRACE_SCENARIO is unset")
    }

    @Test func aBoundedLoopStaysWithinItsBoundAndSnapshotsOnSIGUSR1() throws {
        let path = TraceFixtures.path("bounded-loop")
        let snapshot = String(path.dropLast(6)) + ".snapshot-1.trace"
        defer { unlink(path); unlink(snapshot) }
        let bound = 256 << 10
        let (process, output) = try Self.launchStress(trace: path, environment: [
            "REACTOR_TRACE_MAX_BYTES": "256K", "REACTOR_TRACE_COMMIT": "abc123", "REACTOR_TRACE_SCENARIO": "loop",
            "REACTOR_TRACE_SNAPSHOT_ON_SIGUSR1": "1",
        ])
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        #expect(BuiltProducts.readLine(output) == "recording")
        // Watch the file while the recorder bounds it a few times over.
        let chunk = 28 + TraceRecorder.Options(maxBytes: bound).effectiveSegmentCapacity
        var largest = 0
        let bounded = Self.wait(seconds: 60) {
            largest = max(largest, Self.fileSize(path))
            guard let reader = try? TraceReader(path: path) else { return false }
            _ = try? reader.nextBatch { _ in }
            return (reader.history?.compactions ?? 0) >= 3
        }
        #expect(bounded)
        kill(process.processIdentifier, SIGUSR1)
        #expect(Self.wait(seconds: 30) {
            guard let reader = try? TraceReader(path: snapshot) else { return false }
            _ = try? reader.skipToEnd()
            return reader.end?.termination == .snapshot
        })
        #expect(process.isRunning, "SIGUSR1 does not end the process")
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        #expect(largest <= bound + chunk)
        #expect(Self.fileSize(path) <= bound + chunk)

        let json = try BuiltProducts.inspect("summary", path, "--json")
        #expect(json.status == 0, "\(json.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let metadata = try #require(object["metadata"] as? [String: String])
        #expect(metadata["commit"] == "abc123")
        #expect(metadata["scenario"] == "loop")
        let history = try #require(object["history"] as? [String: Any])
        #expect(history["maxBytes"] as? Int == bound)
        #expect((history["eventsOverwritten"] as? Int ?? 0) > 0)
        let text = try BuiltProducts.inspect("summary", path)
        #expect(text.stdout.contains("to 256 KiB; overwrote"))
        #expect(text.stdout.contains("commit abc123, scenario loop"))
        // The graph's nodes are named from the restated definitions, not numbers.
        let hot = try BuiltProducts.inspect("hot", path, "--json")
        #expect(hot.status == 0)
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(hot.stdout.utf8)) as? [[String: Any]])
        #expect(!rows.isEmpty)
        for row in rows {
            let name = row["name"] as? String ?? "#"
            #expect(!name.contains("#"), "\(name) is known only by its id")
        }

        let copy = try BuiltProducts.inspect("summary", snapshot)
        #expect(copy.status == 0, "\(copy.stderr)")
        #expect(copy.stdout.contains("a snapshot"))
    }

    @Test func aBadBoundIsOneLineAndTheRecordingGoesOnUnbounded() throws {
        let path = TraceFixtures.path("bad-bound")
        defer { unlink(path) }
        let run = try BuiltProducts.run("stress", ["--computations", "20", "--writes", "50", "--trace", path],
                                        environment: ["REACTOR_TRACE_MAX_BYTES": "lots"])
        #expect(run.status == 0)
        #expect(run.stderr.split(separator: "\n").filter { $0.contains("REACTOR_TRACE_MAX_BYTES") }
                == ["ReactorTrace: REACTOR_TRACE_MAX_BYTES=lots is not a size (20M, 1G, 256K or bytes); recording without a bound"])
        let reader = try TraceReader(path: path)
        _ = try reader.skipToEnd()
        #expect(reader.end != nil)
        #expect(reader.history == nil)
    }
}

private enum TraceFixtures {
    static func path(_ name: String) -> String {
        NSTemporaryDirectory() + "reactor-\(name)-\(getpid())-\(UUID().uuidString).trace"
    }
}
