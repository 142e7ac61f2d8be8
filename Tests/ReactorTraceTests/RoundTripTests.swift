import Foundation
import ReactorCore
import Testing
@testable import ReactorTrace

@Suite struct RoundTripTests {
    @Test func everyKindAndFieldRoundTrips() throws {
        let bytes = try TraceFixtures.record { recorder in
            for record in TraceFixtures.everyKind { record.send(to: recorder) }
        }
        let (events, reader) = try TraceFixtures.readAll(bytes)
        #expect(events.map(\.record) == TraceFixtures.everyKind)
        #expect(Set(events.map(\.record.kind)) == Set(TraceEventKind.allCases))
        #expect(reader.truncation == nil)
        #expect(reader.end?.events == UInt64(TraceFixtures.everyKind.count))
        #expect(reader.header.major == TraceFormat.majorVersion)
        #expect([TraceClock.monotonic, .calibratedTicks].contains(reader.header.clock))
        #expect(events.allSatisfy { $0.thread == 0 })
    }
}

/// Event times, from either clock: nanoseconds since the start, never backwards on a thread.
@Suite struct ClockTests {
    @Test(arguments: [false, true])
    func durationsAreNanosecondsOfTheMonotonicClock(usesCycleCounter: Bool) throws {
        var outer: (start: UInt64, end: UInt64) = (0, 0)
        let bytes = try TraceFixtures.record(options: .init(usesCycleCounter: usesCycleCounter)) { recorder in
            outer.start = MonotonicClock.now()
            recorder.rerunBegan(computation: 1, firstRun: true)
            usleep(20_000)
            recorder.rerunEnded(computation: 1)
            outer.end = MonotonicClock.now()
        }
        let (events, reader) = try TraceFixtures.readAll(bytes)
        if !usesCycleCounter { #expect(reader.header.clock == .monotonic) }
        let duration = try #require(events.last?.timestamp) - (events.first?.timestamp ?? 0)
        // usleep sleeps at least 20 ms; the recorded span lies inside the one measured around it
        // (plus the calibration's tolerance, generously 0.1%).
        #expect(duration >= 20_000_000)
        #expect(Double(duration) <= Double(outer.end - outer.start) * 1.001)
        #expect(reader.header.monotonicStartNanoseconds <= outer.start)
    }
}

@Suite struct RecorderStartTests {
    @Test func unwritablePathsFailWithAClearError() throws {
        let path = "/nonexistent-reactor-dir/trace.trace"
        #expect(throws: TraceRecorderError.self) { try TraceRecorder.start(path: path) }
        #expect(TraceRecorder.current == nil)
        do {
            try TraceRecorder(path: path).stop()
        } catch {
            #expect("\(error)".contains(path))
            #expect("\(error)".contains("No such file or directory"))
        }
    }

    @Test func aFullDiskFailsTheStart() throws {
        #expect(throws: TraceRecorderError.cannotCreate(path: "/dev/full", reason: "No space left on device")) {
            try TraceRecorder(path: "/dev/full")
        }
    }

    @Test func startFromEnvironmentDoesNothingWithoutTheVariable() throws {
        #expect(try TraceRecorder.startFromEnvironment([:]) == nil)
        #expect(try TraceRecorder.startFromEnvironment(["REACTOR_TRACE": ""]) == nil)
        #expect(TraceRecorder.current == nil)
    }

    @Test func stopIsIdempotentAndReportsWhatWasWritten() throws {
        let path = TraceFixtures.temporaryPath("stats")
        defer { unlink(path) }
        let recorder = try TraceRecorder(path: path)
        for index in 0..<100 { recorder.changed(dependency: UInt64(index)) }
        let statistics = recorder.stop()
        // The thread's first event is untimed, so a clock event goes before it.
        #expect(statistics.events == 101)
        #expect(statistics.writeError == 0)
        #expect(recorder.stop() == statistics)
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int
        #expect(UInt64(size ?? 0) == statistics.bytes)
    }
}
