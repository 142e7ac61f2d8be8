import TraceForgery
import Foundation
import Testing
@testable import ReactorTrace

/// A reader of a path reads the file as it was when opened: up to its size
/// then. A file that grew past that size is a recording going on (a block cut
/// there is being written, not damage); one that did not is judged as before.
@Suite struct GrowingFileReaderTests {
    /// Writes `bytes[..<cut]` to a new file, opens a reader on it, then
    /// appends `bytes[cut...]` (nothing when `grows` is false) and reads all.
    static func read(_ bytes: [UInt8], cutAt cut: Int, grows: Bool) throws -> (TraceReader, [TraceEvent]) {
        let path = TraceFixtures.temporaryPath("growing")
        defer { unlink(path) }
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes[..<cut])))
        let reader = try TraceReader(path: path)
        if grows { try FollowingReaderTests.append(bytes[cut...], to: path) }
        return (reader, try FollowingReaderTests.drain(reader))
    }

    @Test(arguments: [true, false])
    func aBlockCutWhereTheFileEndedWhenOpenedIsBeingWrittenIfTheFileGrew(grows: Bool) throws {
        let bytes = try FollowingReaderTests.recordedBytes()
        let whole = try TraceFixtures.readAll(bytes)
        let blocks = TraceBytes.blockOffsets(bytes)
        try #require(blocks.count >= 2)
        // Inside a block header, inside a payload, and between blocks; the last block is the end block.
        let cuts = blocks.flatMap { [($0, $0), ($0, $0 + 10), ($0, $0 + TraceFormat.blockHeaderLength + 1)] }
            .filter { $0.1 > blocks[0] }
        for (block, cut) in cuts {
            let (reader, events) = try Self.read(bytes, cutAt: cut, grows: grows)
            // The blocks before the cut, never what was written after opening.
            let before = try TraceFixtures.readAll(Array(bytes[..<block])).events
            #expect(events.map(\.record) == before.map(\.record), "cut at \(cut)")
            #expect(events.count <= whole.events.count)
            #expect(reader.isFinished)
            #expect(reader.end == nil)
            if grows {
                #expect(reader.isStillRecording, "cut at \(cut)")
                #expect(reader.truncation == nil, "cut at \(cut)")
            } else {
                #expect(!reader.isStillRecording)
                let expected: TraceDecodingError = cut == block ? .missingEnd(offset: cut) : .truncated(offset: block)
                #expect(reader.truncation?.reason == expected, "cut at \(cut)")
            }
        }
    }

    @Test func aWholeTraceIsReadWholeAndDamageIsStillDamage() throws {
        var bytes = try FollowingReaderTests.recordedBytes()
        let whole = try TraceFixtures.readAll(bytes)
        let (reader, events) = try Self.read(bytes, cutAt: bytes.count, grows: false)
        #expect(events.map(\.record) == whole.events.map(\.record))
        #expect(reader.truncation == nil)
        #expect(!reader.isStillRecording)
        #expect(reader.end != nil)

        let blocks = TraceBytes.blockOffsets(bytes)
        // Damage before where the file ended when opened.
        bytes[blocks[0] + TraceFormat.blockHeaderLength] ^= 0xFF
        let (damaged, _) = try Self.read(bytes, cutAt: blocks[1] + 10, grows: true)
        #expect(damaged.truncation?.reason == .corruptChunk(offset: blocks[0]))
        #expect(!damaged.isStillRecording)
    }
}
