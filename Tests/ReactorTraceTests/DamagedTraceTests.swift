import TraceForgery
import Foundation
import ReactorCore
import Testing
@testable import ReactorTrace

/// Truncated, foreign, newer and mutated files: the reader reads what is
/// readable, rejects what is not a trace with a clear error, and never traps.
@Suite struct DamagedTraceTests {
    /// A small trace of several chunks (256-byte buffers) and its events.
    static let smallTrace: (bytes: [UInt8], events: [TraceEvent]) = {
        let bytes = try! TraceFixtures.record(options: .init(segmentCapacity: 256)) { recorder in
            for _ in 0..<3 {
                for record in TraceFixtures.everyKind { record.send(to: recorder) }
            }
        }
        let events = try! TraceFixtures.readAll(bytes).events
        return (bytes, events)
    }()

    @Test func smallTraceHasSeveralChunks() throws {
        let reader = try TraceReader(bytes: Self.smallTrace.bytes)
        try reader.skipToEnd()
        #expect(reader.chunksRead >= 3)
        #expect(reader.truncation == nil)
        #expect(Self.smallTrace.events.count == 3 * TraceFixtures.everyKind.count)
    }

    @Test func truncationAtEveryOffsetYieldsTheCompleteChunks() throws {
        let full = Self.smallTrace.bytes
        let blockEnds = Set(TraceBytes.blockOffsets(full).map { $0 })
        for length in 0..<full.count {
            let prefix = Array(full[0..<length])
            if length == 0 {
                #expect(throws: TraceDecodingError.empty) { try TraceReader(bytes: prefix) }
                continue
            }
            if length < TraceFormat.headerLength {
                #expect(throws: TraceDecodingError.self) { try TraceReader(bytes: prefix) }
                continue
            }
            let (events, reader) = try TraceFixtures.readAll(prefix)
            // Whole chunks only: the events read are a prefix of the full stream.
            #expect(Array(Self.smallTrace.events.prefix(events.count)) == events)
            let truncation = try #require(reader.truncation, "a cut trace must say where it stopped")
            #expect(truncation.offset <= length)
            if blockEnds.contains(length) {
                #expect(truncation.reason == .missingEnd(offset: length))
            } else {
                #expect(truncation.reason == .truncated(offset: truncation.offset))
                // Nothing complete was left unread: the cut chunk runs past the end.
                #expect(length - truncation.offset < TraceFormat.blockHeaderLength
                        || truncation.offset + 28 + Int(TraceBytes.uint32(prefix, at: truncation.offset + 4)) > length)
            }
        }
    }

    @Test func foreignFilesAreRejectedClearly() throws {
        #expect(throws: TraceDecodingError.notATrace) { try TraceReader(bytes: Array("hello, world\n".utf8)) }
        #expect(throws: TraceDecodingError.notATrace) {
            try TraceReader(bytes: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 0, count: 64))
        }
        #expect(throws: TraceDecodingError.notATrace) { try TraceReader(bytes: [0x7B]) }
        #expect(throws: TraceDecodingError.empty) { try TraceReader(bytes: []) }
        #expect(throws: TraceDecodingError.truncatedHeader(bytes: 3, needed: TraceFormat.headerLength)) {
            try TraceReader(bytes: Array(TraceFormat.magic.prefix(3)))
        }
        let missing = TraceFixtures.temporaryPath("missing")
        #expect(throws: TraceDecodingError.self) { try TraceReader(path: missing) }
        #expect(throws: TraceDecodingError.self) { try TraceReader(path: FileManager.default.temporaryDirectory.path) }
        do {
            _ = try TraceReader(path: missing)
        } catch {
            #expect(error.description.contains(missing))
        }
        #expect(TraceDecodingError.notATrace.description.contains("not a Reactor trace"))
        // Devices and FIFOs are refused at once instead of blocking or reading forever.
        #expect(throws: TraceDecodingError.unreadable(path: "/dev/zero", reason: "not a regular file")) {
            try TraceReader(path: "/dev/zero")
        }
        let fifo = TraceFixtures.temporaryPath("fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        defer { unlink(fifo) }
        #expect(throws: TraceDecodingError.unreadable(path: fifo, reason: "not a regular file")) { try TraceReader(path: fifo) }
    }

    @Test func newerMajorVersionIsRejected() throws {
        var bytes = Self.smallTrace.bytes
        bytes[8] = 2
        TraceBytes.reseal(&bytes)
        #expect(throws: TraceDecodingError.unsupportedVersion(major: 2, minor: TraceFormat.minorVersion)) {
            try TraceReader(bytes: bytes)
        }
        #expect(TraceDecodingError.unsupportedVersion(major: 2, minor: 0).description.contains("2.0"))
    }

    @Test func newerMinorVersionReadsSkippingWhatItAdds() throws {
        let original = Self.smallTrace.bytes
        // A 1.9 header: 16 more bytes of fields this reader does not know.
        var header = Array(original[0..<40]) + [UInt8](repeating: 0xAB, count: 16)
        header[10] = 9
        TraceBytes.setUInt32(&header, at: 12, 60)
        header.appendLittleEndian(CRC32.checksum(header))
        // A block of an unknown type, and a chunk with an extension event (tag 67,
        // length-prefixed, unknown to this version) between two known ones on a new thread.
        let unknownBlock = TraceBytes.block(type: 0x5859_5A57, payload: [1, 2, 3, 4, 5])
        let payload: [UInt8] = [TraceEventKind.changed.rawValue, 14,            // changed(dependency: 7)
                                67, 3, 0xFF, 0xFE, 0xFD,                        // extension event, 3 bytes
                                TraceEventKind.changed.rawValue, 2]             // changed(dependency: 8)
        let chunk = TraceBytes.block(type: TraceFormat.chunkBlock, thread: 99, events: 3,
                                     flags: TraceFormat.freshContextFlag, payload: payload)
        let bytes = header + unknownBlock + chunk + original[TraceFormat.headerLength...]
        let (events, reader) = try TraceFixtures.readAll(bytes)
        #expect(reader.header.minor == 9)
        #expect(reader.header.length == 60)
        #expect(reader.skippedEvents == 1)
        #expect(reader.truncation == nil)
        #expect(events.prefix(2).map(\.record) == [.changed(dependency: 7), .changed(dependency: 8)])
        #expect(events.prefix(2).allSatisfy { $0.thread == 99 })
        #expect(Array(events.dropFirst(2)) == Self.smallTrace.events)
    }

    @Test func corruptChunkStopsReadingThere() throws {
        var bytes = Self.smallTrace.bytes
        let offsets = TraceBytes.chunkOffsets(bytes)
        let second = offsets[1]
        bytes[second + TraceFormat.blockHeaderLength] ^= 0x40   // payload bit flip, checksum now wrong
        let (events, reader) = try TraceFixtures.readAll(bytes)
        #expect(reader.truncation == TraceTruncation(offset: second, reason: .corruptChunk(offset: second)))
        #expect(events.count == reader.eventsRead)
        #expect(Array(Self.smallTrace.events.prefix(events.count)) == events)
        // Strict mode throws the same error.
        let strict = try TraceReader(bytes: bytes, mode: .strict)
        #expect(throws: TraceDecodingError.corruptChunk(offset: second)) { while try strict.next() != nil {} }
    }

    @Test func tenThousandMutationsNeverTrapOrHang() throws {
        let counterTrace = try TraceFixtures.record { recorder in
            recorder.nodeCreated(1, kind: .computation, name: "label", parent: 0)
            recorder.nodeCreated(2, kind: .reactiveValue, name: "", parent: 0)
            recorder.nodeNamed(2, name: "CounterViewModel.counter", owner: 0)
            for _ in 0..<20 {
                recorder.changed(dependency: 2)
                recorder.invalidated(computation: 1, cause: .dependency, source: 2)
                recorder.flushBegan()
                recorder.rerunBegan(computation: 1, firstRun: false)
                recorder.depend(computation: 1, dependency: 2)
                recorder.rerunEnded(computation: 1)
                recorder.flushEnded()
            }
        }
        let seeds = [Self.smallTrace.bytes, counterTrace]
        var random = SystemRandomNumberGenerator()
        var outcomes = [0, 0, 0]   // rejected, read with a truncation, read intact
        for round in 0..<10_000 {
            var bytes = seeds[round % seeds.count]
            let mutations = Int.random(in: 1...4, using: &random)
            for _ in 0..<mutations { Self.mutate(&bytes, using: &random) }
            if round % 2 == 0 { TraceBytes.reseal(&bytes) }   // get past the checksums
            do {
                let reader = try TraceReader(bytes: bytes)
                var count = 0
                while let _ = try reader.next() {
                    count += 1
                    // A trace of n bytes cannot hold more than n events.
                    if count > bytes.count { Issue.record("more events than bytes: a loop"); break }
                }
                outcomes[reader.truncation == nil ? 2 : 1] += 1
            } catch {
                outcomes[0] += 1
                #expect(!error.description.isEmpty)
            }
        }
        #expect(outcomes.reduce(0, +) == 10_000)
        #expect(outcomes[0] > 0 && outcomes[1] > 0)
    }

    /// One random bit flip, truncation, insertion, overwrite, deletion or duplication.
    static func mutate(_ bytes: inout [UInt8], using random: inout SystemRandomNumberGenerator) {
        guard !bytes.isEmpty else { bytes = [UInt8.random(in: 0...255, using: &random)]; return }
        let index = Int.random(in: 0..<bytes.count, using: &random)
        switch Int.random(in: 0..<6, using: &random) {
        case 0: bytes[index] ^= 1 << UInt8.random(in: 0..<8, using: &random)
        case 1: bytes.removeLast(Int.random(in: 0...(bytes.count - index), using: &random))
        case 2: bytes.insert(contentsOf: (0..<Int.random(in: 1...8, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }, at: index)
        case 3: bytes[index] = [0x00, 0xFF, 0x7F, 0x80, UInt8.random(in: 0...255, using: &random)].randomElement(using: &random)!
        case 4: bytes.removeSubrange(index..<min(bytes.count, index + Int.random(in: 1...16, using: &random)))
        default:
            let end = min(bytes.count, index + Int.random(in: 1...64, using: &random))
            bytes.insert(contentsOf: bytes[index..<end], at: end)
        }
    }
}
