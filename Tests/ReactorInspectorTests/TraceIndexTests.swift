import Foundation
@testable import ReactorInspector
import ReactorTrace
import Testing

/// The index file: what it holds, how it is checked, and that a question
/// about a moment answered with it is the one answered by a whole pass.
@Suite struct TraceIndexTests {
    /// A trace of many small chunks (256-byte buffers) with actions and values.
    static func trace(_ name: String, count: Int = 200, segmentCapacity: Int = 256) throws -> String {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("index-\(name)-\(getpid())-\(UUID().uuidString).trace").path
        var script = TraceScript()
        script.setUp()
        for index in 0..<count { script.addTodo("item \(index)") }
        // Chunks only as buffers fill: the writer's timed passes would ship partial buffers
        // as more chunks on a loaded machine (more index bytes a trace byte).
        var options = TraceRecorder.Options(segmentCapacity: segmentCapacity, flushInterval: .seconds(3600))
        options.values = .described(maxLength: 64)
        try script.record(to: path, options: options)
        return path
    }

    static func built(_ path: String) throws -> TraceIndex {
        try TraceIndex.build(forTrace: path).0
    }

    @Test func anIndexReadsBackAsWritten() throws {
        // 1 KiB chunks (an app's are 64 KiB): with 256-byte ones the chunk table alone is near a tenth.
        let path = try Self.trace("roundtrip", count: 800, segmentCapacity: 1024)
        let index = try Self.built(path)
        #expect(index.batches.count > 20)
        #expect(try TraceIndex.decode(index.encoded(), tailLength: index.moments?.tailLength ?? 0) == index)
        #expect(try TraceIndex.load(forTrace: path) == index)
        let (_, report) = try TraceFile.model(path: path)
        #expect(index.readReport(path: path) == report)
        // A few bytes per chunk: far below a tenth of the trace.
        let traceSize = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        #expect(index.encoded().count * 10 < traceSize)
    }

    /// Every cut of the file, and every byte changed, is an error: never a trap, never an index.
    @Test func everyCutAndEveryChangedByteIsRefused() throws {
        let bytes = try Self.built(try Self.trace("cuts", count: 20)).encoded()
        for length in 0..<bytes.count {
            #expect(throws: TraceIndexError.self) { try TraceIndex.decode(Array(bytes[0..<length])) }
        }
        // Bytes 10 and 11 are reserved: readers ignore them.
        for position in bytes.indices where !(10..<12).contains(position) {
            var changed = bytes
            changed[position] ^= 0x5A
            #expect(throws: TraceIndexError.self) { try TraceIndex.decode(changed) }
        }
    }

    /// Under a checksum that fits, figures no trace can have are refused all the same.
    @Test func impossibleFiguresAreRefused() throws {
        var index = try Self.built(try Self.trace("figures", count: 20))
        let honest = index
        index.batches[1].endOffset = index.identity.size + 1
        #expect(throws: TraceIndexError.self) { try TraceIndex.decode(index.encoded()) }
        index = honest
        index.batches[2].lastTime = index.latestTimestamp + 1
        #expect(throws: TraceIndexError.self) { try TraceIndex.decode(index.encoded()) }
        index = honest
        index.events = Int(index.identity.size) + 1
        #expect(throws: TraceIndexError.self) { try TraceIndex.decode(index.encoded()) }
        // Random bodies with a fitting checksum: an error or an index, never a trap.
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let body = (0..<Int.random(in: 0..<64, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            _ = try? TraceIndex.decode(Self.sealed(body))
        }
    }

    /// An index file of `body` under a CRC that fits and `tag` (by default this user's).
    static func sealed(_ body: [UInt8], tag: UInt64? = nil) -> [UInt8] {
        var bytes = TraceIndex.magic
        bytes.appendLittleEndian(TraceIndex.version)
        bytes.appendLittleEndian(UInt16(0))
        bytes.appendLittleEndian(UInt32(body.count))
        bytes.appendLittleEndian(CRC32.checksum(body))
        bytes.appendLittleEndian(tag ?? IndexKey.current?.tag(body) ?? 0)
        return bytes + body
    }

    /// The kept model reads back as the pass built it, field for field.
    @Test func theKeptModelReadsBackAsBuilt() throws {
        let path = try Self.trace("model")
        let index = try Self.built(path)
        let kept = try #require(index.model).model
        let (passed, _) = try TraceFile.model(path: path)
        #expect(IndexedModel(passed) == IndexedModel(kept))
        let read = try #require(try TraceIndex.decode(index.encoded(), tailLength: index.moments?.tailLength ?? 0).model).model
        #expect(IndexedModel(read) == IndexedModel(passed))
        #expect(read.nodes.map(\.name) == passed.nodes.map(\.name))
        #expect(read.nodes.map(\.runs) == passed.nodes.map(\.runs))
        #expect(read.actions == passed.actions)
        #expect(read.edges == passed.edges && read.finalEdges == passed.finalEdges)
    }

    /// A model changed under a fitting CRC is refused unless tagged with this user's key;
    /// model sections of random bytes under a fitting CRC and tag give an error or an index, never a trap.
    @Test func aForgedModelIsRefusedByItsTag() throws {
        var index = try Self.built(try Self.trace("forged", count: 30))
        var model = try #require(index.model).model
        model.nodes[0].runs.runs += 1
        index.model = IndexedModel(model)
        let bytes = index.encoded()
        #expect(try TraceIndex.decode(bytes, tailLength: index.moments?.tailLength ?? 0).model?.model.nodes[0].runs.runs
                == model.nodes[0].runs.runs)
        let body = Array(bytes[TraceIndex.prefixLength...])
        #expect(throws: TraceIndexError.untrusted) {
            try TraceIndex.decode(Self.sealed(body, tag: SipHash24(key: (1, 2)).tag(body)))
        }

        // Without snapshots: the model is the body's last section.
        var lean = try Self.built(try Self.trace("fuzz", count: 30))
        lean.moments = nil
        let honest = lean.encoded()
        let modelStart = honest.count - (try #require(index.model).bytes.count)
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            var body = Array(honest[TraceIndex.prefixLength...])
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                let position = Int.random(in: (modelStart - TraceIndex.prefixLength)..<body.count, using: &generator)
                body[position] = UInt8.random(in: 0...255, using: &generator)
            }
            _ = try? TraceIndex.decode(Self.sealed(body))
        }
    }

    /// A model larger than a reader accepts beside its trace is left out, so the
    /// index written reads back (with its table) instead of being rebuilt on every question.
    @Test func aModelTooLargeForItsTraceIsLeftOut() throws {
        let path = try Self.trace("large", count: 5)
        var index = try Self.built(path)
        let kept = try #require(index.model).model
        let names = String(repeating: "n", count: 1_000)
        let nodes = (0..<2_000).map { TraceNode(id: UInt64($0 + 1), kind: .computed, givenName: "\(names)\($0)") }
        index.model = IndexedModel(TraceModel(nodes: nodes, edges: [], finalEdges: [], snapshot: nil, actions: [],
                                              eventCount: kept.eventCount, eventsByKind: [:], firstTimestamp: 0,
                                              lastTimestamp: 0, threadCount: 1, flushes: FlushStats(), issueCounts: [:],
                                              issues: [], explanations: [:], unfinishedRuns: 0))
        #expect(UInt64(index.encoded().count) > TraceIndex.sizeLimit(forTrace: index.identity.size))
        try index.write(forTrace: path)
        let read = try #require(try TraceIndex.load(forTrace: path))
        #expect(!read.keepsModel)
        #expect(read.batches == index.batches)
    }

    /// SipHash-2-4's reference vector (key 00…0f, message 00…0e).
    @Test func theTagIsSipHash24() {
        let hash = SipHash24(key: (0x0706_0504_0302_0100, 0x0F0E_0D0C_0B0A_0908))
        #expect(hash.tag(Array(0..<15)) == 0xA129_CA61_49BE_45E5)
        #expect(hash.tag([]) == 0x726F_DB47_DD0E_0E31)
    }

    /// A moment read with the index, stopping early, is the model of a whole pass.
    @Test(arguments: [0, 1, 3, 10, 50, 150, 199])
    func aMomentReadWithTheIndexIsTheWholePass(action: Int) throws {
        let path = try Self.trace("moment-\(action)")
        let index = try Self.built(path)
        var notes: [String] = []
        let batch = index.batches[min(index.batches.count - 1, action)]
        for moment in [TraceMoment.afterAction(max(1, action)), .time(batch.firstTime), .time(batch.lastTime - 1)] {
            let whole = try TraceFile.model(path: path, at: moment)
            let indexed = try TraceFile.model(path: path, at: moment, index: .automatic(note: { notes.append($0) }))
            #expect(Self.figures(indexed.0) == Self.figures(whole.0))
            #expect(indexed.1 == whole.1)
            #expect(indexed.2 == whole.2)
            let text = { (built: (TraceModel, ResolvedMoment, TraceReadReport)) in
                StateReport(model: built.0, moment: built.1, filter: nil).text(style: .plain, tracePath: path)
            }
            #expect(text(indexed) == text(whole))
        }
        #expect(notes.isEmpty)
    }

    /// What a model at a moment says, figure by figure.
    static func figures(_ model: TraceModel) -> [String] {
        ["\(model.eventCount) \(model.skippedEvents) \(model.clockEvents) \(model.threadCount)",
         "\(model.firstTimestamp) \(model.lastTimestamp) \(model.latestTimestampRead) \(model.hasValues)",
         "\(model.eventsByKind.sorted { $0.key.rawValue < $1.key.rawValue })",
         "\(model.nodes.map { "\($0.id) \($0.name) \($0.value ?? "-") \($0.runs.runs) \($0.runs.totalNanoseconds)" })",
         "\(model.edges.count) \(model.finalEdges.count) \(model.actions.count) \(model.flushes)"]
    }

    /// A moment early in the trace reads only the chunks up to it.
    @Test func anEarlyMomentReadsOnlyThePrefix() throws {
        let path = try Self.trace("prefix", count: 400)
        let index = try Self.built(path)
        let builder = TraceModelBuilder(options: TraceModelOptions(until: index.batches[3].lastTime))
        let session = TraceIndexSession(tracePath: path, note: { Issue.record("note: \($0)") })
        var batches = 0
        let (_, stoppedEarly) = try session.forEachBatch(progress: nil, until: { builder.options.until }) { _ in
            batches += 1
        }
        #expect(stoppedEarly)
        #expect(batches < index.batches.count / 10)
    }
}
