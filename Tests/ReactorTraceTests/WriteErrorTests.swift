import TraceForgery
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

    @Test("a disk that fills up just before the end block: the last chunk makes room for it",
          .enabled(if: SmallDisk.canMount, "mounting a tmpfs needs root (CAP_SYS_ADMIN); not permitted here"))
    func endBlockAfterFullDisk() throws {
        // Two pages, one of them taken: the trace has 4,096 bytes.
        let disk = try #require(SmallDisk(kibibytes: 8))
        let filler = disk.path("filler")
        #expect(FileManager.default.createFile(atPath: filler, contents: Data(count: 4096)))
        let path = disk.path("full.trace")
        // One segment and no periodic flush: `stop()` ships the events as one chunk.
        let recorder = try TraceRecorder(path: path, options: .init(segmentCapacity: 64 << 10, flushInterval: .seconds(3600)))
        // A clock event (3 to 12 bytes) and 2 bytes an event: header (44) + chunk (28 + payload)
        // end 4,061 to 4,070 bytes in, too close to the page's end for the end block (68).
        let produced = 1990
        for _ in 0..<produced { recorder.changed(dependency: 1) }
        let statistics = recorder.stop()
        #expect(statistics.writeError == ENOSPC)
        #expect(statistics.eventsProduced == UInt64(produced + 1))
        #expect(statistics.events == 0)
        #expect(statistics.eventsDropped == UInt64(produced + 1))
        #expect(statistics.chunks == 0)

        let reader = try TraceReader(path: path)
        #expect(try reader.skipToEnd() == 0)
        #expect(reader.truncation == nil)
        let end = try #require(reader.end)
        #expect(end.events == 0)
        #expect(end.chunks == 0)
        #expect(end.eventsDropped == statistics.eventsDropped)
        #expect(end.termination == .stopped)
        // The header, the metadata block (kept: the file is never cut back past it) and the end block.
        let file = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let blocks = TraceBytes.blockOffsets(file)
        #expect(blocks.map { TraceBytes.uint32(file, at: $0) } == [TraceFormat.metadataBlock, TraceFormat.endBlock])
        #expect(statistics.bytes == UInt64(blocks[1] + TraceFormat.blockHeaderLength + 40))
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
