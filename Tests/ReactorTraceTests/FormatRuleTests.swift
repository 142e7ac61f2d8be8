import TraceForgery
import Testing
@testable import ReactorTrace
@testable import ReactorTraceFormat

/// The rules docs/TRACE_FORMAT.md states where it was once ambiguous: an untimed value
/// or site event's time across contexts, thread indices with gaps, the end block's
/// lengths, and what a trace's count of events is.
@Suite struct FormatRuleTests {
    static let header = TraceHeader(wallStartNanoseconds: 0, monotonicStartNanoseconds: 0, processID: 0).encoded()
    /// flushBegan at Δ 1000 ns: the thread's time is 1000.
    static let flushAt1000: [UInt8] = [11, 0xE8, 0x07]

    /// Section 7a: a value event that opens a fresh context takes the time of the thread's
    /// event before it (1000 ns), not the fresh register's 0.
    @Test func aValueEventOpeningAFreshContextKeepsTheThreadsTime() throws {
        let value: [UInt8] = [0x40, 0x04, 0x18, 0x00, 0x01, 0x78]   // value(12, "x")
        let bytes = Self.header
            + TraceBytes.block(type: TraceFormat.chunkBlock, sequence: 0, events: 1, flags: 1, payload: Self.flushAt1000)
            + TraceBytes.block(type: TraceFormat.chunkBlock, sequence: 1, events: 1, flags: 1, payload: value)
        let (events, _) = try TraceFixtures.readAll(bytes)
        #expect(events.map(\.record) == [.flushBegan, .value(node: 12, value: "x")])
        #expect(events.map(\.timestamp) == [1000, 1000])
    }

    /// Section 7b: the same for a site event.
    @Test func aSiteEventOpeningAFreshContextKeepsTheThreadsTime() throws {
        let site: [UInt8] = [0x41, 0x05, 0x0C, 0x00, 0x00, 0x01, 0x41]   // site(12, creation, "A")
        let bytes = Self.header
            + TraceBytes.block(type: TraceFormat.chunkBlock, sequence: 0, events: 1, flags: 1, payload: Self.flushAt1000)
            + TraceBytes.block(type: TraceFormat.chunkBlock, sequence: 1, events: 1, flags: 1, payload: site)
        let (events, _) = try TraceFixtures.readAll(bytes)
        #expect(events.count == 2)
        #expect(events.map(\.timestamp) == [1000, 1000])
    }

    /// Section 6: thread indices are labels; a gap (threads 0 and 5) is not damage.
    @Test func threadIndicesWithAGapReadAsTwoThreads() throws {
        let bytes = Self.header
            + TraceBytes.block(type: TraceFormat.chunkBlock, thread: 0, events: 1, flags: 1, payload: Self.flushAt1000)
            + TraceBytes.block(type: TraceFormat.chunkBlock, thread: 5, events: 1, flags: 1, payload: Self.flushAt1000)
        let (events, reader) = try TraceFixtures.readAll(bytes)
        #expect(events.map(\.thread) == [0, 5])
        #expect(reader.threadCount == 2)
        #expect(reader.truncation?.reason == .missingEnd(offset: bytes.count))
    }

    /// Section 4: an end block of 29 to 39 bytes (the 1.1 fields cut) is corrupt; 28 and 40+ read.
    @Test func anEndBlockBetweenTheTwoLengthsIsCorrupt() throws {
        for length in [0, 27, 29, 32, 36, 39] {
            let bytes = Self.header + TraceBytes.block(type: TraceFormat.endBlock, payload: [UInt8](repeating: 0, count: length))
            let (_, reader) = try TraceFixtures.readAll(bytes)
            #expect(reader.end == nil, "\(length) bytes")
            #expect(reader.truncation?.reason == .corruptChunk(offset: 44), "\(length) bytes")
        }
        for length in [28, 40, 48] {
            let bytes = Self.header + TraceBytes.block(type: TraceFormat.endBlock, payload: [UInt8](repeating: 0, count: length))
            let (_, reader) = try TraceFixtures.readAll(bytes)
            #expect(reader.end != nil, "\(length) bytes")
            #expect(reader.truncation == nil, "\(length) bytes")
        }
    }
}
