import TraceForgery
import ReactorCore
import Testing
@testable import ReactorTrace
@testable import ReactorTraceFormat

/// The examples of docs/TRACE_FORMAT.md, byte for byte.
@Suite struct FormatSpecTests {
    @Test func crc32MatchesTheStandardCheckValue() {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(CRC32.checksum([]) == 0)
        // Slicing-by-8 and the byte loop agree across lengths and alignments.
        let bytes = (0..<100).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        for length in 0..<bytes.count {
            var split = CRC32()
            bytes[0..<length / 3].withUnsafeBytes { split.update($0) }
            bytes[length / 3..<length].withUnsafeBytes { split.update($0) }
            #expect(split.value == CRC32.checksum(Array(bytes[0..<length])))
        }
    }

    @Test func crc32FoldingAgreesWithTheBitwiseDefinition() {
        // One bit at a time, straight from the definition: the reference for both paths.
        func reference(_ bytes: ArraySlice<UInt8>) -> UInt32 {
            var crc: UInt32 = 0xFFFF_FFFF
            for byte in bytes {
                crc ^= UInt32(byte)
                for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
            }
            return crc ^ 0xFFFF_FFFF
        }
        var random = UInt64(0x9E37_79B9_7F4A_7C15)
        let bytes = (0..<5_008).map { _ -> UInt8 in
            random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: random >> 56)
        }
        for length in Array(0..<300) + [1_023, 1_024, 1_025, 4_096, 4_999] {
            for start in [0, 1, 7] {
                let slice = bytes[start..<start + length]
                let expected = reference(slice)
                #expect(slice.withUnsafeBytes { CRC32.checksum($0) } == expected, "length \(length) at \(start)")
                var tables = CRC32()
                slice.withUnsafeBytes { tables.updateWithTables($0) }
                #expect(tables.value == expected, "tables, length \(length) at \(start)")
            }
        }
    }

    @Test func varintAndZigzagExamples() {
        var bytes: [UInt8] = []
        for value: UInt64 in [0, 127, 128, 300, .max] { Varint.append(value, to: &bytes) }
        #expect(bytes == [0x00, 0x7F, 0x80, 0x01, 0xAC, 0x02] + [UInt8](repeating: 0xFF, count: 9) + [0x01])
        var reader = ByteReader(bytes)
        #expect([reader.readVarint(), reader.readVarint(), reader.readVarint(), reader.readVarint(), reader.readVarint()]
                == [0, 127, 128, 300, .max])
        #expect(reader.readVarint() == nil)
        var endless = ByteReader([UInt8](repeating: 0x80, count: 11))
        #expect(endless.readVarint() == nil)
        #expect([5, 4, 6, 3, 7].map { Varint.zigzagDelta($0, from: 5) } == [0, 1, 2, 3, 4])
        #expect(Varint.zigzagDelta(4, from: 5) == 1)
        #expect(Varint.zigzagDelta(6, from: 5) == 2)
        for (value, base) in [(UInt64(0), UInt64.max), (.max, 0), (12345, 678), (1 << 62, 1)] {
            #expect(Varint.undoZigzagDelta(Varint.zigzagDelta(value, from: base), from: base) == value)
        }
    }

    @Test func workedExampleDecodes() throws {
        let header = TraceHeader(wallStartNanoseconds: 1, monotonicStartNanoseconds: 2, processID: 3).encoded()
        #expect(header.count == 44)
        #expect(Array(header[0..<8]) == [0x89, 0x52, 0x58, 0x54, 0x52, 0x0D, 0x0A, 0x1A])
        let payload: [UInt8] = [0x05, 0x0A, 0x06, 0x12, 0x09, 0x07, 0x00, 0xE8, 0x07, 0x04, 0x00, 0x00, 0x08, 0x00, 0xFA, 0x01]
        let chunk = TraceBytes.block(type: TraceFormat.chunkBlock, events: 5, flags: 1, payload: payload)
        #expect(Array(chunk[0..<24]) == [0x43, 0x48, 0x4E, 0x4B, 0x10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                         0x05, 0, 0, 0, 0x01, 0, 0, 0])
        let (events, reader) = try TraceFixtures.readAll(header + chunk)
        #expect(events == [
            TraceEvent(timestamp: 0, thread: 0, record: .changed(dependency: 5)),
            TraceEvent(timestamp: 0, thread: 0, record: .invalidated(computation: 9, cause: .dependency, source: 5)),
            TraceEvent(timestamp: 1000, thread: 0, record: .rerunBegan(computation: 9, firstRun: false)),
            TraceEvent(timestamp: 1000, thread: 0, record: .depend(computation: 9, dependency: 5)),
            TraceEvent(timestamp: 1250, thread: 0, record: .rerunEnded(computation: 9)),
        ])
        #expect(reader.truncation == TraceTruncation(offset: header.count + chunk.count,
                                                     reason: .missingEnd(offset: header.count + chunk.count)))
        #expect(reader.header == TraceHeader(wallStartNanoseconds: 1, monotonicStartNanoseconds: 2, processID: 3))
    }

    /// Section 5's node kinds 10 and 11, and a signal stage's run as section 5a records it.
    @Test func signalStageKindsAndRunDecode() throws {
        let header = TraceHeader(wallStartNanoseconds: 0, monotonicStartNanoseconds: 0, processID: 0).encoded()
        let payload: [UInt8] = [
            0x01, 0x0A, 0x06, 0x00, 0x05, 0x73, 0x2E, 0x6D, 0x61, 0x70, 0x00, 0x0A,  // created operator 3 "s.map" at 10
            0x01, 0x0B, 0x02, 0x00, 0x01, 0x62, 0x00, 0x00,                          // created binding 4 "b"
            0x05, 0x04,                                                              // changed 2 (the subject)
            0x06, 0x06, 0x09,                                                        // invalidated 3, dependency, source 2
            0x07, 0x00, 0x05,                                                        // rerunBegan 3 at 15
        ]
        let chunk = TraceBytes.block(type: TraceFormat.chunkBlock, events: 5, flags: 1, payload: payload)
        let (events, _) = try TraceFixtures.readAll(header + chunk)
        #expect(events.map(\.record) == [
            .nodeCreated(id: 3, kind: .operator, name: "s.map", parent: 0),
            .nodeCreated(id: 4, kind: .binding, name: "b", parent: 0),
            .changed(dependency: 2),
            .invalidated(computation: 3, cause: .dependency, source: 2),
            .rerunBegan(computation: 3, firstRun: false),
        ])
        #expect(events.map(\.timestamp) == [10, 10, 10, 10, 15])
    }

    @Test func recorderWritesTheWorkedExampleBytes() throws {
        let bytes = try TraceFixtures.record { recorder in
            recorder.changed(dependency: 5)
            recorder.invalidated(computation: 9, cause: .dependency, source: 5)
            recorder.depend(computation: 9, dependency: 5)
        }
        let chunk = Array(bytes[TraceBytes.chunkOffsets(bytes)[0]...])
        #expect(TraceBytes.uint32(chunk, at: 0) == TraceFormat.chunkBlock)
        // A clock event first (the thread's first event is untimed): tag 65, its length, its time.
        #expect(chunk[28] == TraceFormat.clockTag)
        let events = 28 + 2 + Int(chunk[29])
        #expect(Array(chunk[events..<events + 8]) == [0x05, 0x0A, 0x06, 0x12, 0x09, 0x04, 0x00, 0x00])
    }

    @Test func sequenceAndContextRulesAreEnforced() throws {
        let header = TraceHeader(wallStartNanoseconds: 0, monotonicStartNanoseconds: 0, processID: 0).encoded()
        let changed: [UInt8] = [0x05, 0x0A]
        let fresh = TraceBytes.block(type: TraceFormat.chunkBlock, events: 1, flags: 1, payload: changed)
        let next = TraceBytes.block(type: TraceFormat.chunkBlock, sequence: 1, events: 1, payload: [0x05, 0x02])
        // A continuation chunk continues the registers: D = 5 + 1.
        let (events, _) = try TraceFixtures.readAll(header + fresh + next)
        #expect(events.map(\.record) == [.changed(dependency: 5), .changed(dependency: 6)])
        // A continuation with no chunk before it, a skipped sequence number, a wrong event count.
        let orphan = TraceBytes.block(type: TraceFormat.chunkBlock, thread: 4, sequence: 1, events: 1, payload: changed)
        let gap = TraceBytes.block(type: TraceFormat.chunkBlock, sequence: 2, events: 1, payload: changed)
        let miscounted = TraceBytes.block(type: TraceFormat.chunkBlock, events: 2, flags: 1, payload: changed)
        for (bytes, offset) in [(header + orphan, 44), (header + fresh + gap, 44 + fresh.count), (header + miscounted, 44)] {
            let (events, reader) = try TraceFixtures.readAll(bytes)
            #expect(reader.truncation?.reason == .corruptChunk(offset: offset))
            #expect(events.count == (offset == 44 ? 0 : 1))
        }
    }
}
