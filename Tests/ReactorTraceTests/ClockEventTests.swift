import TraceForgery
import Foundation
import ReactorCore
import Testing
@testable import ReactorTrace
@testable import ReactorTraceFormat

/// Section 7, "Clock events": a thread's first event never reads as the
/// trace's start when the thread began later.
@Suite struct ClockEventTests {
    static let header = FormatClauseTests.header

    /// Both clock events time the untimed event after them at 7,000 ns and the rerun after it
    /// at 8,000 ns: the clock event (tag 67, 1.3) carries a timestamp and leaves the register
    /// alone, so the next `time` field counts from 0; the clock event of 1.1 and 1.2 files
    /// (tag 66) sets the thread's time register, so the next `time` field counts from it.
    @Test(arguments: [
        // clock (tag 67) at 7,000 (D8 36), changed(5), rerunBegan(9, first run) Δ 8,000 (C0 3E).
        [0x43, 0x02, 0xD8, 0x36, 0x05, 0x0A, 0x07, 0x25, 0xC0, 0x3E],
        // clock (tag 66) Δ 7,000 (D8 36), changed(5), rerunBegan(9, first run) Δ 1,000 (E8 07).
        [0x42, 0x02, 0xD8, 0x36, 0x05, 0x0A, 0x07, 0x25, 0xE8, 0x07],
    ] as [[UInt8]])
    func aClockEventTimesTheUntimedEventsAfterIt(payload: [UInt8]) throws {
        let chunk = TraceBytes.block(type: TraceFormat.chunkBlock, thread: 1, events: 3, flags: 1, payload: payload)
        let (events, reader) = try TraceFixtures.readAll(Self.header + chunk + FormatClauseTests.endBlock(events: 3, chunks: 1))
        #expect(events.map(\.record) == [.changed(dependency: 5), .rerunBegan(computation: 9, firstRun: true)])
        #expect(events.map(\.timestamp) == [7_000, 8_000])
        #expect(reader.clockEvents == 1)
        #expect(reader.skippedEvents == 0)
        #expect(UInt64(reader.eventsRead + reader.clockEvents) == reader.end?.events)
    }

    /// Bytes of a clock body after its `time` field are skipped (room for a newer minor version).
    @Test func bytesAfterAClocksTimeAreSkipped() throws {
        let payload: [UInt8] = [0x42, 0x04, 0xD8, 0x36, 0xFF, 0x01, 0x05, 0x0A]
        let chunk = TraceBytes.block(type: TraceFormat.chunkBlock, events: 2, flags: 1, payload: payload)
        let (events, reader) = try TraceFixtures.readAll(Self.header + chunk)
        #expect(events.map(\.timestamp) == [7_000])
        #expect(reader.truncation?.reason == .missingEnd(offset: Self.header.count + chunk.count))
    }

    /// A clock body too short for its `time` field is a corrupt chunk.
    @Test func aClockWithoutItsTimeIsCorrupt() throws {
        // The body claims 1 byte, but the varint D8 36 needs 2.
        let payload: [UInt8] = [0x42, 0x01, 0xD8, 0x36, 0x05, 0x0A]
        let chunk = TraceBytes.block(type: TraceFormat.chunkBlock, events: 2, flags: 1, payload: payload)
        let (events, reader) = try TraceFixtures.readAll(Self.header + chunk)
        #expect(events.isEmpty)
        #expect(reader.truncation?.reason == .corruptChunk(offset: Self.header.count))
    }
}
