import Testing
import Foundation
@testable import ReactorInspector

@Suite struct ByteOutputTests {
    func text(_ fill: (ByteOutput) throws -> Void) throws -> String {
        var bytes: [UInt8] = []
        let output = ByteOutput(capacity: 8) { bytes += $0 }
        try fill(output)
        try output.flush()
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func microsecondsAreExact() throws {
        #expect(try text { $0.appendMicroseconds(0) } == "0.000")
        #expect(try text { $0.appendMicroseconds(1_010) } == "1.010")
        #expect(try text { $0.appendMicroseconds(123_456_789_012) } == "123456789.012")
        #expect(try text { $0.appendMicroseconds(UInt64.max) } == "18446744073709551.615")
    }

    @Test func jsonEscapingRoundTrips() throws {
        let hostile = "quote \" backslash \\ newline \n tab \t bell \u{07} nul \u{00} é 😀"
        let json = try text { output in
            try output.append("[\"")
            output.appendJSONEscaped(hostile)
            try output.append("\"]")
        }
        let decoded = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String]
        #expect(decoded == [hostile])
    }

    @Test func flushesWhenTheBufferFills() throws {
        var chunks: [[UInt8]] = []
        let output = ByteOutput(capacity: 4) { chunks.append($0) }
        try output.append("ab")
        #expect(chunks.isEmpty)
        try output.append("cdef")
        #expect(chunks == [Array("abcdef".utf8)])
        try output.flush()
        #expect(chunks.count == 1)   // nothing left to flush
    }
}
