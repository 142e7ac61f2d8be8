import Testing
@testable import ReactorTrace

/// A file cut inside its header says so, with its length and the header's, not "a block starting at byte N".
@Suite struct HeaderTruncationTests {
    @Test func everyCutInsideTheHeaderIsReportedAsAHeaderTruncation() throws {
        let bytes = try TraceFixtures.record { recorder in
            recorder.nodeCreated(1, kind: .computation, name: "label", parent: 0)
        }
        for length in 1..<TraceFormat.headerLength {
            #expect(throws: TraceDecodingError.truncatedHeader(bytes: length, needed: TraceFormat.headerLength)) {
                try TraceReader(bytes: Array(bytes.prefix(length)))
            }
            let error = TraceDecodingError.truncatedHeader(bytes: length, needed: TraceFormat.headerLength)
            #expect(error.description.contains("inside its header: the file has \(length) byte"))
            #expect(!error.description.contains("block"))
        }
        #expect(throws: Never.self) { try TraceReader(bytes: Array(bytes.prefix(TraceFormat.headerLength))) }
    }
}
