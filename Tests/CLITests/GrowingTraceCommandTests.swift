import BuiltProducts
import Foundation
import Testing

/// Commands that read a trace file while an app is still recording it: each
/// reads the file as it was when it began (``TraceFile``), so it ends even
/// though the recorder writes faster than it reads, and a chunk the recorder
/// is in the middle of writing is not damage.
@Suite struct GrowingTraceCommandTests {
    /// Runs `reactor-inspect ARGUMENTS`; nil if it has not exited within five
    /// minutes: a guard against a read that chases the recorder for ever.
    static func inspect(_ arguments: [String]) throws -> BuiltProducts.Run? {
        try BuiltProducts.run("reactor-inspect", arguments, within: 300)
    }

    @Test func whyAndStateOnATraceBeingRecordedEnd() throws {
        let path = SampleTrace.directory.appendingPathComponent("growing-\(UUID().uuidString).trace").path
        defer { unlink(path) }
        var environment = ProcessInfo.processInfo.environment
        environment["REACTOR_TRACE"] = nil
        environment["REACTOR_TRACE_VALUES"] = "32"
        // About 300,000 events a second: as fast as a debug build reads them on a busy machine.
        let (stress, output) = try BuiltProducts.launch("stress", ["--computations", "60", "--loop", "--writes-per-second",
                                                                   "2000", "--trace", path], environment: environment)
        defer { if stress.isRunning { kill(stress.processIdentifier, SIGKILL); stress.waitUntilExit() } }
        #expect(BuiltProducts.readLine(output) == "recording")
        usleep(500_000)

        let why = try #require(try Self.inspect(["why", path, "effect0", "--limit", "1", "--no-progress", "--color", "never"]),
                               "why did not end while the trace was being recorded")
        #expect(why.status == 0, "\(why.stderr)")
        #expect(why.stdout.contains("effect0"))
        #expect(why.stderr.contains("is still being recorded"), "\(why.stderr)")

        // A moment the trace holds nodes at however slowly the sample started:
        // a millisecond after its first node came into being.
        let firstNode = try #require(try RecordingProgress.firstNodeTime(in: path), "no node in the trace")
        let state = try #require(try Self.inspect(["state", path, "--at", "\(firstNode / 1_000_000 + 1)ms", "--json",
                                                   "--no-progress"]),
                                 "state did not end while the trace was being recorded")
        #expect(state.status == 0, "\(state.stderr)")
        #expect(state.stdout.contains("\"name\""))

        // A gate does not pass on half a recording: `check` says so and exits 2.
        let budget = FileManager.default.temporaryDirectory.appendingPathComponent("growing-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: budget) }
        try Data(#"{ "computations": [ { "match": "effect", "maxReruns": 1000000000 } ] }"#.utf8).write(to: budget)
        let check = try #require(try Self.inspect(["check", path, "--budget", budget.path, "--no-progress"]),
                                 "check did not end while the trace was being recorded")
        #expect(check.status == 2, "\(check.stdout)\(check.stderr)")
        #expect(check.stderr.contains("warning:") && check.stderr.contains("is still being recorded"), "\(check.stderr)")
        #expect(stress.isRunning, "the recorder was still writing all along")
    }
}
