import BuiltProducts
import Foundation
import ReactorInspector
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A fatal signal sent from outside ends the recording only if it ends the
/// process: one the app's handler survives (the Swift runtime's backtracer
/// reports an outside SIGBUS and returns) leaves the recording going on.
@Suite struct SurvivedSignalTests {
    /// `stress --loop` recording into a fresh trace, with `environment` added.
    static func recordingStress(_ environment: [String: String]) throws -> (process: Process, path: String) {
        let path = SampleTrace.directory.appendingPathComponent("signalled-\(UUID().uuidString).trace").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try BuiltProducts.path(of: "stress"))
        process.arguments = ["--computations", "20", "--loop", "--writes-per-second", "200", "--trace", path]
        var merged = ProcessInfo.processInfo.environment
        merged["REACTOR_TRACE"] = nil
        for (key, value) in environment { merged[key] = value }
        process.environment = merged
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        #expect(BuiltProducts.readLine(out.fileHandleForReading) == "recording")
        // Signalled once the writer has shipped a first flush: well past its start.
        let live = LiveTrace(path: path)
        let deadline = ContinuousClock.now + .seconds(10)
        while live.model().eventCount == 0, ContinuousClock.now < deadline {
            usleep(20_000)
            try live.catchUp()
        }
        return (process, path)
    }

    @Test func aSIGBUSTheBacktracerSurvivesLeavesTheRecordingGoing() throws {
        let (stress, path) = try Self.recordingStress(["SWIFT_BACKTRACE": "enable=yes"])
        defer {
            if stress.isRunning { kill(stress.processIdentifier, SIGKILL) }
            stress.waitUntilExit()
            unlink(path)
        }
        kill(stress.processIdentifier, SIGBUS)
        // The backtracer takes a moment to report; the app then writes on.
        let live = LiveTrace(path: path)
        try live.catchUp()
        var before = live.model().eventCount
        var grew = false
        let deadline = ContinuousClock.now + .seconds(20)
        while ContinuousClock.now < deadline, stress.isRunning {
            usleep(500_000)
            try live.catchUp()
            let now = live.model().eventCount
            if now > before, live.end == nil {
                // Growing twice in a row: past the report.
                if grew { break }
                grew = true
            }
            before = now
        }
        #expect(stress.isRunning, "the app survived the signal")
        #expect(live.end == nil, "no end block: the recording did not end (\(String(describing: live.end?.termination)))")
        #expect(live.status == .recording)
        let summary = try BuiltProducts.inspect("summary", path)
        #expect(!summary.stdout.contains("died of"), "\(summary.stdout)")
    }

    @Test func aSIGBUSThatEndsTheProcessIsWrittenAsItsEnd() throws {
        // No backtracer: the default action ends the process, and the trace says what ended it.
        let (stress, path) = try Self.recordingStress(["SWIFT_BACKTRACE": "enable=no"])
        defer { unlink(path) }
        kill(stress.processIdentifier, SIGBUS)
        stress.waitUntilExit()
        #expect(stress.terminationReason == .uncaughtSignal)
        #expect(stress.terminationStatus == SIGBUS)
        let summary = try BuiltProducts.inspect("summary", path)
        #expect(summary.stdout.contains("the process died of SIGBUS"), "\(summary.stdout)")
    }
}
