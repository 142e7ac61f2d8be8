import Foundation
import ReactorCore
import Testing
@testable import ReactorTrace

@Suite struct RoundTripTests {
    @Test func everyKindAndFieldRoundTrips() throws {
        let bytes = try TraceFixtures.record { recorder in
            for record in TraceFixtures.everyKind { TraceFixtures.send(record, to: recorder) }
        }
        let (events, reader) = try TraceFixtures.readAll(bytes)
        #expect(events.map(\.record) == TraceFixtures.everyKind)
        #expect(Set(events.map(\.record.kind)) == Set(TraceEventKind.allCases))
        #expect(reader.truncation == nil)
        #expect(reader.end?.events == UInt64(TraceFixtures.everyKind.count))
        #expect(reader.header.major == TraceFormat.majorVersion)
        #expect(reader.header.clock == .monotonic)
        #expect(events.allSatisfy { $0.thread == 0 })
    }
}
