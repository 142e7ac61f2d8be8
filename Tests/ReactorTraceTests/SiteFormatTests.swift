import TraceForgery
import ReactorCore
import Testing
@testable import ReactorTrace

/// docs/TRACE_FORMAT.md section 7b (site events), byte for byte.
@Suite struct SiteFormatTests {
    /// The section's example: node 12 created at `A.swift:3`, then an action of
    /// store 12 called at the same site (a reference to site entry 1).
    static let example: [UInt8] = [0x41, 0x0D, 0x0C, 0x00, 0x00, 0x09,
                                   0x41, 0x2E, 0x73, 0x77, 0x69, 0x66, 0x74, 0x3A, 0x33,
                                   0x41, 0x03, 0x0C, 0x01, 0x01]

    @Test func theExampleDecodes() throws {
        let (records, reader) = try ValueFormatTests.read(Self.example, events: 2)
        #expect(records == [.site(node: 12, site: "A.swift:3", isActionCall: false),
                            .site(node: 12, site: "A.swift:3", isActionCall: true)])
        #expect(reader.skippedEvents == 0)
    }

    @Test func theRecorderWritesTheExampleBytes() throws {
        let bytes = try TraceFixtures.record { recorder in
            recorder.site(12, site: "A.swift:3", isActionCall: false)
            recorder.site(12, site: "A.swift:3", isActionCall: true)
        }
        let chunk = Array(bytes[TraceBytes.chunkOffsets(bytes)[0]...])
        #expect(Array(chunk[28..<28 + Self.example.count]) == Self.example)
    }

    @Test func sitesHaveTheirOwnTableAndLeaveTheRegistersAlone() throws {
        let payload: [UInt8] = [0x02, 0x0E, 0x00, 0x01, 0x41, 0x00,           // named(7, "A"); string entry 1
                                0x41, 0x05, 0x05, 0x00, 0x00, 0x01, 0x42,     // site(5, "B"); site entry 1
                                0x02, 0x02, 0x01, 0x00,                       // named(8, string entry 1 = "A")
                                0x41, 0x03, 0x06, 0x00, 0x01]                 // site(6, site entry 1 = "B")
        let (records, _) = try ValueFormatTests.read(payload, events: 4)
        #expect(records == [.nodeNamed(id: 7, name: "A", owner: 0), .site(node: 5, site: "B", isActionCall: false),
                            .nodeNamed(id: 8, name: "A", owner: 0), .site(node: 6, site: "B", isActionCall: false)])
    }

    @Test func anUnknownRoleIsSkippedButItsEntryKept() throws {
        let payload: [UInt8] = [0x41, 0x05, 0x05, 0x07, 0x00, 0x01, 0x42,     // role 7: skipped, entry 1 = "B"
                                0x41, 0x03, 0x06, 0x01, 0x01]                 // site(6, entry 1), action call
        let (records, reader) = try ValueFormatTests.read(payload, events: 2)
        #expect(records == [.site(node: 6, site: "B", isActionCall: true)])
        #expect(reader.skippedEvents == 1)
    }

    @Test(arguments: [
        [0x41, 0x03, 0x0C, 0x00, 0x01] as [UInt8],       // reference to an empty site table
        [0x41, 0x04, 0x0C, 0x00, 0x00, 0x05, 0x41],      // new site longer than the body
    ])
    func malformedSiteEventsMakeTheChunkCorrupt(payload: [UInt8]) throws {
        let (records, reader) = try ValueFormatTests.read(payload, events: 1)
        #expect(records.isEmpty)
        #expect(reader.truncation?.reason == .corruptChunk(offset: 44))
    }
}
