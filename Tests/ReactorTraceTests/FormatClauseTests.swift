import TraceForgery
import ReactorCore
import Testing
@testable import ReactorTrace
@testable import ReactorTraceFormat

/// One decoding fixture per clause of docs/TRACE_FORMAT.md that says what a
/// reader does at an edge: event times, the end of the trace, skipped events,
/// reserved flags, the order of the block checks, header truncation, stop causes.
@Suite struct FormatClauseTests {
    static let header = TraceHeader(wallStartNanoseconds: 0, monotonicStartNanoseconds: 0, processID: 0).encoded()

    static func endBlock(events: UInt64, chunks: UInt64) -> [UInt8] {
        var payload: [UInt8] = []
        payload.appendLittleEndian(events)
        payload.appendLittleEndian(chunks)
        payload.appendLittleEndian(UInt64(10_000))
        payload.appendLittleEndian(UInt32(1))
        return TraceBytes.block(type: TraceFormat.endBlock, payload: payload)
    }

    /// Section 7, "Event times": an untimed event at the start of a fresh
    /// context takes the thread's latest time, not the reset register; one
    /// before any timed event of its thread takes the trace's start.
    @Test func untimedEventsTakeTheThreadsLatestTimeAcrossContexts() throws {
        // rerunBegan(9, first run) at 5,000 ns: v = zigzag(9)·2 + 1 = 37; Δ 5000 = 88 27.
        let first = TraceBytes.block(type: TraceFormat.chunkBlock, events: 1, flags: 1, payload: [0x07, 0x25, 0x88, 0x27])
        // A fresh context: changed(5) (untimed), then rerunEnded(9) at 6,000 ns (Δ from T = 0: F0 2E).
        let second = TraceBytes.block(type: TraceFormat.chunkBlock, sequence: 1, events: 2, flags: 1,
                                      payload: [0x05, 0x0A, 0x08, 0x12, 0xF0, 0x2E])
        // Thread 1 starts with an untimed event: the trace's start.
        let other = TraceBytes.block(type: TraceFormat.chunkBlock, thread: 1, events: 1, flags: 1, payload: [0x05, 0x0A])
        let (events, _) = try TraceFixtures.readAll(Self.header + first + second + other)
        #expect(events.map(\.timestamp) == [5_000, 5_000, 6_000, 0])
        #expect(events.map(\.thread) == [0, 0, 0, 1])
    }

    /// Section 4: the end block ends the trace; bytes after it are reported, not damage.
    @Test func bytesAfterTheEndBlockAreReportedNotDamage() throws {
        let chunk = TraceBytes.block(type: TraceFormat.chunkBlock, events: 1, flags: 1, payload: [0x05, 0x0A])
        let end = Self.endBlock(events: 1, chunks: 1)
        let intact = Self.header + chunk + end
        for trailing: [UInt8] in [[0x00], Array("garbage after the end".utf8), chunk] {
            let (events, reader) = try TraceFixtures.readAll(intact + trailing)
            #expect(events.map(\.record) == [.changed(dependency: 5)])
            #expect(reader.truncation == nil)
            #expect(reader.end?.events == 1)
            #expect(reader.trailingBytesOffset == intact.count)
        }
        let (_, clean) = try TraceFixtures.readAll(intact)
        #expect(clean.trailingBytesOffset == nil)
        #expect(clean.truncation == nil)
    }

    /// Section 5: extension events and events with unknown values are skipped
    /// and counted, so that read + skipped is the count the end block gives.
    @Test func skippedEventsAreCountedWithTheRest() throws {
        // changed(5); extension tag 67 (unknown) with a 2-byte body; invalidated(9) with cause 7 (unknown).
        let payload: [UInt8] = [0x05, 0x0A, 0x43, 0x02, 0xAA, 0xBB, 0x06, 0x12, 0x07]
        let chunk = TraceBytes.block(type: TraceFormat.chunkBlock, events: 3, flags: 1, payload: payload)
        let (events, reader) = try TraceFixtures.readAll(Self.header + chunk + Self.endBlock(events: 3, chunks: 1))
        #expect(events.count == 1)
        #expect(reader.skippedEvents == 2)
        #expect(UInt64(reader.eventsRead + reader.skippedEvents) == reader.end?.events)
    }

    /// Section 4: flag bits 1–7 are reserved and ignored; only bit 0 means anything.
    @Test func reservedFlagBitsAreIgnored() throws {
        let allBits = TraceBytes.block(type: TraceFormat.chunkBlock, events: 1, flags: 0xFF, payload: [0x05, 0x0A])
        let (events, reader) = try TraceFixtures.readAll(Self.header + allBits)
        #expect(events.map(\.record) == [.changed(dependency: 5)])
        #expect(reader.truncation?.reason == .missingEnd(offset: Self.header.count + allBits.count))
        // Without bit 0, a thread's first chunk continues nothing: corrupt, whatever the other bits say.
        let noFresh = TraceBytes.block(type: TraceFormat.chunkBlock, events: 1, flags: 0xFE, payload: [0x05, 0x0A])
        let (none, orphan) = try TraceFixtures.readAll(Self.header + noFresh)
        #expect(none.isEmpty)
        #expect(orphan.truncation?.reason == .corruptChunk(offset: Self.header.count))
    }

    /// Section 4: fewer than 28 bytes, then the length limit, then a short payload, then the CRC.
    @Test func blockChecksComeInTheSpecifiedOrder() throws {
        let offset = Self.header.count
        let chunk = TraceBytes.block(type: TraceFormat.chunkBlock, events: 1, flags: 1, payload: [0x05, 0x0A])
        // 1. A block header cut short.
        let (_, short) = try TraceFixtures.readAll(Self.header + Array(chunk.prefix(27)))
        #expect(short.truncation?.reason == .truncated(offset: offset))
        // 2. A length over 1 MiB in a file far too short for it: corrupt, not truncated.
        var huge = chunk
        TraceBytes.setUInt32(&huge, at: 4, UInt32(TraceFormat.maxPayloadLength + 1))
        let (_, tooLong) = try TraceFixtures.readAll(Self.header + huge)
        #expect(tooLong.truncation?.reason == .corruptChunk(offset: offset))
        // 3. A valid length, but the file ends inside the payload (the CRC is never reached).
        let (_, cut) = try TraceFixtures.readAll(Self.header + Array(chunk.dropLast()))
        #expect(cut.truncation?.reason == .truncated(offset: offset))
        // 4. Whole, with a bad CRC.
        var damaged = chunk
        damaged[damaged.count - 1] ^= 0x01
        let (_, crc) = try TraceFixtures.readAll(Self.header + damaged)
        #expect(crc.truncation?.reason == .corruptChunk(offset: offset))
    }

    /// Section 3: a file that ends inside the header is a header truncation,
    /// which says how long the file is and what the header needs, not a block offset.
    @Test func headerTruncationNamesTheHeader() {
        for length in [9, 15, 16, 30, 43] {
            #expect(throws: TraceDecodingError.truncatedHeader(bytes: length, needed: 44)) {
                try TraceReader(bytes: Array(Self.header.prefix(length)))
            }
        }
        #expect(TraceDecodingError.truncatedHeader(bytes: 9, needed: 44).description.contains("inside its header"))
        #expect(TraceDecodingError.truncated(offset: 72).description.contains("byte 72"))
    }

    /// Section 5: causes 5 (runaway) and 6 (error) decode; 7 is unknown and skipped.
    @Test func stopCausesDecode() throws {
        // invalidated(9, cause c, no source): 06 12 c.
        let payload: [UInt8] = [0x06, 0x12, 0x04, 0x06, 0x00, 0x05, 0x06, 0x00, 0x06, 0x06, 0x00, 0x02]
        let chunk = TraceBytes.block(type: TraceFormat.chunkBlock, events: 4, flags: 1, payload: payload)
        let (events, reader) = try TraceFixtures.readAll(Self.header + chunk)
        #expect(events.map(\.record) == [
            .invalidated(computation: 9, cause: .stop, source: 0),
            .invalidated(computation: 9, cause: .runaway, source: 0),
            .invalidated(computation: 9, cause: .error, source: 0),
            .invalidated(computation: 9, cause: .parent, source: 0),
        ])
        #expect(reader.skippedEvents == 0)
    }
}
