import Foundation
import ReactorCore
import Testing
@testable import ReactorTrace

@Suite struct RoundTripTests {
    @Test func everyKindAndFieldRoundTrips() throws {
        let bytes = try TraceFixtures.record { recorder in
            for record in TraceFixtures.everyKind { TraceFixtures.send(record, to: recorder) }
        }
        let (events, reader) = try TraceFixtures.readAll(bytes)
        #expect(events.map(\.record) == TraceFixtures.everyKind)
        #expect(Set(events.map(\.record.kind)) == Set(TraceEventKind.allCases))
        #expect(reader.truncation == nil)
        #expect(reader.end?.events == UInt64(TraceFixtures.everyKind.count))
        #expect(reader.header.major == TraceFormat.majorVersion)
        #expect(reader.header.clock == .monotonic)
        #expect(events.allSatisfy { $0.thread == 0 })
    }
}

@Suite struct RecorderStartTests {
    @Test func unwritablePathsFailWithAClearError() throws {
        let path = "/nonexistent-reactor-dir/trace.rtrace"
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
        #expect(statistics.events == 100)
        #expect(statistics.writeError == 0)
        #expect(recorder.stop() == statistics)
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int
        #expect(UInt64(size ?? 0) == statistics.bytes)
    }
}
