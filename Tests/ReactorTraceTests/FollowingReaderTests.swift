import TraceForgery
import Foundation
import Testing
@testable import ReactorTrace

/// A reader following a trace that grows: complete blocks are read as they
/// land, a block written only in part is waited for (never damage), the end
/// block finishes reading, and real damage still stops it.
@Suite struct FollowingReaderTests {
    /// A recorded trace with one chunk per record and an end block.
    static func recordedBytes() throws -> [UInt8] {
        try TraceFixtures.record { recorder in
            for record in TraceFixtures.everyKind { record.send(to: recorder) }
        }
    }

    /// Appends `bytes` to the file at `path`.
    static func append(_ bytes: ArraySlice<UInt8>, to path: String) throws {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(bytes))
    }

    /// Every event the reader hands out now.
    static func drain(_ reader: TraceReader) throws -> [TraceEvent] {
        var events: [TraceEvent] = []
        while let event = try reader.next() { events.append(event) }
        return events
    }

    @Test func readsEachBlockAsItLandsAndWaitsOnPartialOnes() throws {
        let bytes = try Self.recordedBytes()
        let whole = try TraceFixtures.readAll(bytes)
        let blocks = TraceBytes.blockOffsets(bytes)
        #expect(blocks.count >= 2)
        let path = TraceFixtures.temporaryPath("follow")
        defer { unlink(path) }
        // The header only: no events yet, nothing wrong.
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes[0..<blocks[0]])))
        let reader = try TraceReader(following: path)
        #expect(reader.isFollowing)
        #expect(try Self.drain(reader).isEmpty)
        #expect(!reader.isFinished)
        #expect(reader.truncation == nil)

        var seen: [TraceEvent] = []
        var written = blocks[0]
        for (position, start) in blocks.enumerated() {
            let end = position + 1 < blocks.count ? blocks[position + 1] : bytes.count
            // Half a block header, then half the block: both waited on.
            for cut in [start + 10, start + (end - start) / 2 + 1] where cut > written && cut < end {
                try Self.append(bytes[written..<cut], to: path)
                written = cut
                seen += try Self.drain(reader)
                #expect(reader.truncation == nil)
                #expect(!reader.isFinished)
            }
            try Self.append(bytes[written..<end], to: path)
            written = end
            seen += try Self.drain(reader)
            #expect(reader.truncation == nil)
        }
        #expect(seen.count == whole.events.count)
        #expect(seen.map(\.record) == whole.events.map(\.record))
        #expect(reader.isFinished)
        #expect(reader.end == whole.reader.end)
        #expect(reader.end != nil)
    }

    @Test func aDamagedCompleteBlockStopsFollowing() throws {
        var bytes = try Self.recordedBytes()
        let blocks = TraceBytes.blockOffsets(bytes)
        bytes[blocks[1] + TraceFormat.blockHeaderLength] ^= 0xFF  // payload byte: checksum no longer matches
        let path = TraceFixtures.temporaryPath("follow-damaged")
        defer { unlink(path) }
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        let reader = try TraceReader(following: path)
        _ = try Self.drain(reader)
        #expect(reader.isFinished)
        #expect(reader.truncation?.reason == .corruptChunk(offset: blocks[1]))
        #expect(reader.end == nil)
    }

    @Test func followsALiveRecorderToItsEnd() throws {
        let path = TraceFixtures.temporaryPath("follow-live")
        defer { unlink(path) }
        let recorder = try TraceRecorder(path: path, options: .init(flushInterval: .milliseconds(1)))
        let reader = try TraceReader(following: path)
        var seen = 0
        for round in 0..<20 {
            for record in TraceFixtures.everyKind { record.send(to: recorder) }
            if round == 10 { usleep(5000) }
            seen += try Self.drain(reader).count
            #expect(reader.truncation == nil)
        }
        let statistics = recorder.stop()
        // The file is complete once stop() returns: one pass reaches the end block.
        for _ in 0..<3 where !reader.isFinished {
            seen += try Self.drain(reader).count
            #expect(reader.truncation == nil)
        }
        #expect(reader.isFinished)
        #expect(UInt64(seen) == statistics.events)
        #expect(reader.end?.events == statistics.events)
    }
}
