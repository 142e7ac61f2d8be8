import BuiltProducts
import Foundation
import ReactorCore
import ReactorTrace
import ReactorTraceFormat
import Testing

/// A recording whose disk fills up: the app goes on, `stop()` tells produced
/// from written events, and the trace reads up to the failure and ends with
/// an end block that counts what was lost.
@Suite("Recorder write errors")
struct WriteErrorTests {
    @Test("a full disk: statistics and the end block count the dropped events; the trace reads",
          .enabled(if: SmallDisk.canMount, "mounting a tmpfs needs root (CAP_SYS_ADMIN); not permitted here"))
    func fullDisk() throws {
        let disk = try #require(SmallDisk(kibibytes: 64))
        let path = disk.path("full.trace")
        // Not installed as the process's tracer: only the events sent here reach it.
        let recorder = try TraceRecorder(path: path, options: .init(segmentCapacity: 4096))
        let produced = 100_000
        for index in 0..<produced {
            recorder.changed(dependency: UInt64(index % 1000 + 1))
        }
        let statistics = recorder.stop()
        #expect(statistics.writeError == ENOSPC)
        #expect(statistics.eventsDropped > 0)
        // The thread's first event is untimed: a clock event goes before it.
        #expect(statistics.eventsProduced == UInt64(produced + 1))
        #expect(statistics.events + statistics.eventsDropped == UInt64(produced + 1))

        let reader = try TraceReader(path: path)
        let read = try reader.skipToEnd()
        #expect(reader.truncation == nil)
        let end = try #require(reader.end)
        #expect(UInt64(read + reader.clockEvents) == statistics.events)
        #expect(end.events == statistics.events)
        #expect(end.eventsDropped == statistics.eventsDropped)
        #expect(end.termination == .stopped)
    }

    @Test("a recording with room to spare drops nothing")
    func noLoss() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("reactor-noloss-\(UUID().uuidString).trace").path
        defer { unlink(path) }
        let recorder = try TraceRecorder(path: path)
        for index in 0..<1000 { recorder.changed(dependency: UInt64(index + 1)) }
        let statistics = recorder.stop()
        #expect(statistics.writeError == 0)
        #expect(statistics.eventsDropped == 0)
        #expect(statistics.events == 1001)  // and the clock event before the first (untimed) one
        let reader = try TraceReader(path: path)
        try reader.skipToEnd()
        #expect(reader.end?.eventsDropped == 0)
    }
}
