import TraceForgery
import Testing
@testable import ReactorTrace
@testable import ReactorTraceFormat

/// The end block of docs/TRACE_FORMAT.md section 8, byte for byte: the 28
/// bytes of 1.0 and the fields 1.1 appends (events dropped, termination).
@Suite struct EndBlockTests {
    static let header = TraceHeader(minor: 1, wallStartNanoseconds: 1, monotonicStartNanoseconds: 2, processID: 3).encoded()

    static func end(_ payload: [UInt8]) throws -> TraceEnd? {
        let reader = try TraceReader(bytes: header + TraceBytes.block(type: TraceFormat.endBlock, payload: payload))
        try reader.skipToEnd()
        return reader.end
    }

    /// events 5, chunks 2, duration 1000 ns, 1 thread.
    static let fields10: [UInt8] = [0x05, 0, 0, 0, 0, 0, 0, 0,
                                    0x02, 0, 0, 0, 0, 0, 0, 0,
                                    0xE8, 0x03, 0, 0, 0, 0, 0, 0,
                                    0x01, 0, 0, 0]

    @Test func endBlockOfVersion10ReadsAsStoppedWithoutLoss() throws {
        let end = try #require(try Self.end(Self.fields10))
        #expect(end == TraceEnd(events: 5, chunks: 2, durationNanoseconds: 1000, threads: 1))
        #expect(end.eventsDropped == 0)
        #expect(end.termination == .stopped)
    }

    @Test func endBlockOfVersion11CarriesDroppedEventsAndTermination() throws {
        // + 7 events dropped, termination 0x10B: signal 11 (SIGSEGV on Linux).
        let payload = Self.fields10 + [0x07, 0, 0, 0, 0, 0, 0, 0] + [0x0B, 0x01, 0, 0]
        let end = try #require(try Self.end(payload))
        #expect(end.events == 5)
        #expect(end.eventsDropped == 7)
        #expect(end.termination == .signal(11))
        // A runtime error, and a code from a newer recorder.
        #expect(try Self.end(Self.fields10 + [0, 0, 0, 0, 0, 0, 0, 0] + [0x01, 0, 0, 0])?.termination == .runtimeError)
        #expect(try Self.end(Self.fields10 + [0, 0, 0, 0, 0, 0, 0, 0] + [0x00, 0x02, 0, 0])?.termination == .unknown(0x200))
    }

    @Test func terminationCodesRoundTrip() {
        for termination in [TraceTermination.stopped, .runtimeError, .signal(6), .signal(11), .unknown(77)] {
            #expect(TraceTermination(code: termination.code) == termination)
        }
    }
}
