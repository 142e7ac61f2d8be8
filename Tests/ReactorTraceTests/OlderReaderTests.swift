import Foundation
import TraceForgery
import ReactorCore
import Testing
@testable import ReactorTrace
@testable import ReactorTraceFormat

/// Section 9: a 1.0 reader reads a newer file's times right. The reader here is written from
/// docs/TRACE_FORMAT.md's 1.0 rules alone (sections 4–7 without 7a, 7b and clock events): it
/// knows tags 1–13, skips every extension event by its length, and times a timed event by the
/// register `T` of its context. The recorder's files must give it the times the library's
/// reader gives: a clock event that set `T` made its times early by the thread's time
/// before its first timed event.
@Suite struct OlderReaderTests {
    /// Per thread, the timestamps of the timed events (tags 1, 3, 7–13), in order.
    static func timedEventTimes(as10Reader bytes: [UInt8]) throws -> [UInt32: [UInt64]] {
        var times: [UInt32: [UInt64]] = [:]
        // The register `T` a continuing chunk picks up.
        var registers: [UInt32: UInt64] = [:]
        for offset in TraceBytes.chunkOffsets(bytes) {
            let length = Int(TraceBytes.uint32(bytes, at: offset + 4))
            let thread = TraceBytes.uint32(bytes, at: offset + 8)
            let count = Int(TraceBytes.uint32(bytes, at: offset + 16))
            let fresh = bytes[offset + 20] & 1 == 1
            var payload = Payload(bytes: Array(bytes[(offset + 28)..<(offset + 28 + length)]))
            payload.time = fresh ? 0 : registers[thread] ?? 0
            for _ in 0..<count {
                let tag = try payload.byte()
                if tag >= 64 {
                    let body = try payload.varint()
                    payload.position += Int(body)
                    continue
                }
                var timed = true
                switch tag {
                case 1: _ = try payload.byte(); _ = try payload.varint(); try payload.string(); _ = try payload.varint()
                case 2: _ = try payload.varint(); try payload.string(); _ = try payload.varint(); timed = false
                case 3: _ = try payload.varint()
                case 4: _ = try payload.varint(); _ = try payload.varint(); timed = false
                case 5: _ = try payload.varint(); timed = false
                case 6: _ = try payload.varint(); _ = try payload.varint(); timed = false
                case 7, 8, 10: _ = try payload.varint()
                case 9: _ = try payload.varint(); try payload.string(); try payload.string()
                case 11, 12: break
                case 13: _ = try payload.byte(); _ = try payload.varint(); try payload.string()
                default: throw Payload.Malformed()
                }
                if timed {
                    payload.time += try payload.varint()
                    times[thread, default: []].append(payload.time)
                }
            }
            #expect(payload.position == payload.bytes.count)
            registers[thread] = payload.time
        }
        return times
    }

    struct Payload {
        struct Malformed: Error {}
        let bytes: [UInt8]
        var position = 0
        var time: UInt64 = 0

        mutating func byte() throws -> UInt8 {
            guard position < bytes.count else { throw Malformed() }
            defer { position += 1 }
            return bytes[position]
        }

        mutating func varint() throws -> UInt64 {
            var value: UInt64 = 0, shift: UInt64 = 0
            while true {
                let next = try byte()
                value |= UInt64(next & 0x7F) << shift
                if next & 0x80 == 0 { return value }
                shift += 7
            }
        }

        mutating func string() throws {
            if try varint() == 0 { position += Int(try varint()) }
        }
    }

    /// A thread whose first event is untimed and comes well after the trace began: the
    /// recorder writes a clock event first. The 1.0 reader's times for its timed events are
    /// the library reader's, to the nanosecond.
    @Test func aReaderOfVersion10ReadsEveryTimedEventsTime() throws {
        let bytes = try TraceFixtures.record(options: .init(values: .described(maxLength: 64))) { recorder in
            recorder.nodeCreated(1, kind: .computation, name: "main", parent: 0)
            let thread = Thread {
                // Untimed first (a value and a change), after a wait: the thread's clock event is at ≥ 5 ms.
                usleep(5_000)
                recorder.value(2, description: "1")
                recorder.changed(dependency: 2)
                recorder.rerunBegan(computation: 1, firstRun: false)
                recorder.rerunEnded(computation: 1)
            }
            thread.start()
            while !thread.isFinished { usleep(1_000) }
        }
        let (events, reader) = try TraceFixtures.readAll(bytes)
        #expect(reader.clockEvents >= 1)
        var expected: [UInt32: [UInt64]] = [:]
        for event in events where event.record.kind.isTimed { expected[event.thread, default: []].append(event.timestamp) }
        #expect(expected.values.contains { $0.contains { $0 >= 5_000_000 } })
        #expect(try Self.timedEventTimes(as10Reader: bytes) == expected)
    }
}

extension TraceEventKind {
    /// Whether the event has a `time` field (section 5's table).
    var isTimed: Bool {
        switch self {
        case .nodeNamed, .depend, .changed, .invalidated, .value, .site: false
        default: true
        }
    }
}
