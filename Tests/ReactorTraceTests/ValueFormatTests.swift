import TraceForgery
import ReactorCore
import Testing
@testable import ReactorTrace

/// docs/TRACE_FORMAT.md section 7a (value events), byte for byte.
@Suite struct ValueFormatTests {
    static let header = TraceHeader(wallStartNanoseconds: 0, monotonicStartNanoseconds: 0, processID: 0).encoded()
    /// The section's example: node 12 holds "all", then "active", then "all" again.
    static let example: [UInt8] = [0x40, 0x08, 0x18, 0x00, 0x05, 0x22, 0x61, 0x6C, 0x6C, 0x22,
                                   0x40, 0x0B, 0x00, 0x00, 0x08, 0x22, 0x61, 0x63, 0x74, 0x69, 0x76, 0x65, 0x22,
                                   0x40, 0x02, 0x00, 0x01]

    static func read(_ payload: [UInt8], events: UInt32) throws -> (records: [TraceRecord], reader: TraceReader) {
        let chunk = TraceBytes.block(type: TraceFormat.chunkBlock, events: events, flags: 1, payload: payload)
        let (read, reader) = try TraceFixtures.readAll(header + chunk)
        return (read.map(\.record), reader)
    }

    @Test func theExampleDecodes() throws {
        let (records, reader) = try Self.read(Self.example, events: 3)
        #expect(records == [.value(node: 12, value: "\"all\""), .value(node: 12, value: "\"active\""),
                            .value(node: 12, value: "\"all\"")])
        #expect(reader.truncation?.reason == .missingEnd(offset: 44 + 28 + Self.example.count))
        #expect(reader.skippedEvents == 0)
    }

    @Test func theRecorderWritesTheExampleBytes() throws {
        let bytes = try TraceFixtures.record(options: .init(values: .described(maxLength: 200))) { recorder in
            recorder.value(12, description: "\"all\"")
            recorder.value(12, description: "\"active\"")
            recorder.value(12, description: "\"all\"")
        }
        let chunk = Array(bytes[TraceBytes.chunkOffsets(bytes)[0]...])
        // After the clock event that goes before the thread's first (untimed) event.
        #expect(chunk[28] == TraceFormat.clockTag)
        let start = 28 + 2 + Int(chunk[29])
        #expect(Array(chunk[start..<start + Self.example.count]) == Self.example)
        #expect(TraceRecorder.Options(values: .described(maxLength: 200)).values.maxLength == 200)
        #expect(TraceRecorder.Options().values.maxLength == 0)
    }

    @Test func valuesHaveTheirOwnRegisterAndTable() throws {
        // A string (entry 1 of the string table), a value (entry 1 of the value table),
        // then a reference to string entry 1 and to value entry 1: neither table
        // shifts the other, and V leaves N alone.
        let payload: [UInt8] = [0x02, 0x0E, 0x00, 0x01, 0x41, 0x00,     // named(7, "A", owner: none); N = 7
                                0x40, 0x04, 0x64, 0x00, 0x01, 0x42,     // value(50, "B"); V = 50
                                0x02, 0x02, 0x01, 0x00,                 // named(8, entry 1 = "A"); N: 7 → 8
                                0x40, 0x02, 0x01, 0x01]                 // value(49, entry 1 = "B"); V: 50 → 49
        let (records, reader) = try Self.read(payload, events: 4)
        #expect(reader.truncation?.reason == .missingEnd(offset: 44 + 28 + payload.count))
        #expect(records == [.nodeNamed(id: 7, name: "A", owner: 0), .value(node: 50, value: "B"),
                            .nodeNamed(id: 8, name: "A", owner: 0), .value(node: 49, value: "B")])
    }

    @Test func bytesAfterTheKnownFieldsAreSkipped() throws {
        // n = 5: node, reference, then two bytes a newer minor version might add.
        let payload: [UInt8] = [0x40, 0x05, 0x18, 0x00, 0x00, 0xAA, 0xBB, 0x05, 0x0A]
        let (records, reader) = try Self.read(payload, events: 2)
        #expect(records == [.value(node: 12, value: ""), .changed(dependency: 5)])
        #expect(reader.truncation?.reason == .missingEnd(offset: 44 + 28 + payload.count))
    }

    @Test(arguments: [
        [0x40, 0x02, 0x18, 0x01] as [UInt8],                   // reference to an empty value table
        [0x40, 0x03, 0x18, 0x00, 0x05, 0x22, 0x61],            // new value longer than the body
        [0x40, 0x01, 0x18, 0x00],                               // reference past the body's one byte
        [0x40, 0x09, 0x18, 0x00],                               // body past the payload
    ])
    func malformedValueEventsMakeTheChunkCorrupt(payload: [UInt8]) throws {
        let (records, reader) = try Self.read(payload, events: 1)
        #expect(records.isEmpty)
        #expect(reader.truncation?.reason == .corruptChunk(offset: 44))
    }

    @Test func aFreshContextResetsTheValueTableAndRegister() throws {
        let first = TraceBytes.block(type: TraceFormat.chunkBlock, events: 1, flags: 1,
                                     payload: [0x40, 0x04, 0x18, 0x00, 0x01, 0x41])   // value(12, "A")
        let again = TraceBytes.block(type: TraceFormat.chunkBlock, sequence: 1, events: 1, flags: 1,
                                     payload: [0x40, 0x02, 0x18, 0x01])               // entry 1 of an empty table
        let (events, reader) = try TraceFixtures.readAll(Self.header + first + again)
        #expect(events.map(\.record) == [.value(node: 12, value: "A")])
        #expect(reader.truncation?.reason == .corruptChunk(offset: 44 + first.count))
        let continued = TraceBytes.block(type: TraceFormat.chunkBlock, sequence: 1, events: 1,
                                         payload: [0x40, 0x02, 0x02, 0x01])            // V: 12 → 13, entry 1
        let (more, _) = try TraceFixtures.readAll(Self.header + first + continued)
        #expect(more.map(\.record) == [.value(node: 12, value: "A"), .value(node: 13, value: "A")])
    }

    @Test func theEnvironmentVariableTurnsValuesOn() {
        typealias Capture = TraceRecorder.ValueCapture
        #expect(Capture.fromEnvironment(["REACTOR_TRACE_VALUES": "200"]) == .described(maxLength: 200))
        #expect(Capture.fromEnvironment(["REACTOR_TRACE_VALUES": "0"]) == nil)
        #expect(Capture.fromEnvironment(["REACTOR_TRACE_VALUES": "lots"]) == nil)
        #expect(Capture.fromEnvironment([:]) == nil)
        // Bounded: at least room for ‹redacted›, at most a string's 4 KiB.
        #expect(Capture.described(maxLength: 3).maxLength == 16)
        #expect(Capture.described(maxLength: 1 << 20).maxLength == 4_096)
    }

    @Test func longValuesAreCutAtACharacterBoundary() throws {
        // The recorder's own cap: 4,096 bytes, never inside a character.
        let long = String(repeating: "é", count: 3_000)
        let bytes = try TraceFixtures.record { recorder in recorder.value(1, description: long) }
        let events = try TraceFixtures.readAll(bytes).events
        guard case let .value(_, text) = events.first?.record else { Issue.record("no value event"); return }
        #expect(text.utf8.count == 4_096)
        #expect(text == String(repeating: "é", count: 2_048))
    }
}
