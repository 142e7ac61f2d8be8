import BuiltProducts
import Foundation
@testable import ReactorInspector
import ReactorTraceFormat
import Testing

/// The index's light points (docs/INSPECT.md, "The index"): `history NAME` of a trace with
/// values reads each chunk of the nodes it follows alone, from its light point, for a node
/// that changes all through the trace as for a rare one, and says what a pass says, byte for
/// byte; a bad light points section is rebuilt with one note, never a wrong answer.
@Suite struct IndexLightPointsTests {
    /// Every sample with values, and the 4-thread value trace.
    static let samples = ["todos", "counter-values", "profile-values", "stress-threads-values", "threads-values"]

    /// The node with the most values and the one with the fewest (asked by #id: names repeat),
    /// with how many values each has and whether it is a computed: by passes (one for each node with
    /// a value), once for each trace content (``TraceContentMemo``): the tests ask it of copies of one sample.
    static func busyAndRare(_ path: String) throws -> [(name: String, values: Int, computed: Bool)] {
        try chosen.value(forTraceAt: path) { try busyAndRareByPasses(path) }
    }

    private static let chosen = TraceContentMemo<[(name: String, values: Int, computed: Bool)]>()

    private static func busyAndRareByPasses(_ path: String) throws -> [(name: String, values: Int, computed: Bool)] {
        let (model, _) = try TraceFile.model(path: path, options: TraceModelOptions(tracksValues: true))
        var counts: [(name: String, values: Int, computed: Bool)] = []
        for node in model.nodes where node.value != nil {
            let history = try IndexPositionsTests.historyByAPass(path, "#\(node.id)")
            counts.append(("#\(node.id)", history.valueHistory.count, node.kind == .computed))
        }
        counts.sort { ($0.values, $0.name) < ($1.values, $1.name) }
        let busy = counts.filter { !$0.computed }.last
        return [counts.last, busy, counts.first].compactMap { $0 }
    }

    /// The history of the busiest and the rarest node, with the index, is the pass's; past the
    /// chunks where a pass starts following it, a node written by actions (not a computed, whose
    /// values' causes may lie in chunks not read) is read chunk by chunk from the light points.
    @Test(arguments: samples)
    func busyAndRareHistoriesFromTheLightPointsAreThePass(sample: String) throws {
        let path = try IndexPositionsTests.copy(sample, as: "light")
        try IndexPositionsTests.index(path, snapshotBytes: nil)
        // Without the value rows, which answer a kept node's history before the light points.
        try IndexValueRowsTests.rewriteIndex(path) { $0.valueRows = nil }
        let index = try #require(try TraceIndex.load(forTrace: path))
        #expect(index.lightPoints != nil)
        for (name, values, computed) in try Self.busyAndRare(path) {
            let (session, indexed) = try IndexPositionsTests.expectIndexedHistoryIsThePass(path, name)
            #expect(indexed.valueHistory.count == values, "\(name)")
            if !computed, index.batches.count >= 8 { #expect(session.historyFromLightPoints, "\(sample): \(name)") }
        }
    }

    /// The binary, both ways, on the busiest and the rarest node of the 4-thread value trace.
    @Test func busyAndRareHistoryCommandsAreTheSameBothWays() throws {
        let path = try IndexPositionsTests.copy("threads-values", as: "light-cli")
        try IndexPositionsTests.index(path, snapshotBytes: nil)
        try IndexCommandTests.expectSameAnswers(try Self.busyAndRare(path).flatMap { node in
            [["history", path, node.name], ["history", path, node.name, "--json"]]
        })
    }

    /// An index whose light points are `damage`d and without value rows (encoded and tagged with this
    /// user's key, so that only the section's own checks can refuse it): the pass's answer, one note, rebuilt.
    func expectRebuilt(_ label: String, _ damage: ([UInt8], TraceIndex) -> [UInt8]) throws {
        let path = try IndexPositionsTests.copy("threads-values", as: "light-\(label)")
        try IndexPositionsTests.index(path, snapshotBytes: nil)
        let indexPath = TraceIndex.path(forTrace: path)
        var index = try #require(try TraceIndex.load(forTrace: path))
        let original = try #require(FileManager.default.contents(atPath: indexPath))
        let bodyEnd = 28 + Int([UInt8](original)[12..<16].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
        let section = try #require(index.lightPoints)
        index.lightPoints = IndexedLightPoints(bytes: damage(section.bytes, index))
        // Without the value rows, which would answer the history before the light points are read.
        index.valueRows = nil
        try Data(index.encoded() + [UInt8](original)[bodyEnd...]).write(to: URL(fileURLWithPath: indexPath))
        let name = try #require(try Self.busyAndRare(path).dropFirst().first?.name)
        try IndexCommandTests.expectRefusedIndexRebuilt(["history", path, name], noting: "damaged index", label)
    }

    /// Cut short, a chunk's block outside the trace, a frame naming an action the model does not hold.
    @Test func aHostileOrTruncatedSectionIsRebuiltWithOneNote() throws {
        try expectRebuilt("truncated") { bytes, _ in Array(bytes.dropLast(3)) }
        try expectRebuilt("block") { bytes, index in
            // The first chunk's block longer than the file before it.
            var fields = IndexFieldReader(bytes)
            _ = try? fields.next()
            let thread = (try? fields.next()) ?? 0
            _ = try? fields.next()
            var rewritten = IndexFieldWriter()
            rewritten.put(index.batches.count)
            rewritten.put(thread)
            rewritten.put(index.batches[0].endOffset + 1)
            return rewritten.bytes + Array(bytes[(bytes.count - fields.readableBytes)...])
        }
        try expectRebuilt("action") { _, index in
            // Every chunk with one open action past the model's table.
            let actions = index.model?.model.actions.count ?? 0
            var fields = IndexFieldWriter()
            fields.put(index.batches.count)
            var previous: UInt64 = 0
            for batch in index.batches {
                fields.put(0); fields.put(batch.endOffset - previous); fields.put(true); fields.put(0); fields.put(0)
                fields.put(1); fields.put(1); fields.put(1); fields.put(actions + 5); fields.put(0); fields.put(0)
                previous = batch.endOffset
            }
            fields.put(0)
            return fields.bytes
        }
    }

    /// Without light points (an index that could not keep them), `history` reads on from snapshots: the same answer.
    @Test func withoutLightPointsHistoryReadsOnFromSnapshots() throws {
        let path = try IndexPositionsTests.copy("threads-values", as: "light-none")
        try IndexPositionsTests.index(path, snapshotBytes: nil)
        var index = try #require(try TraceIndex.load(forTrace: path))
        index.lightPoints = nil
        let name = try #require(try Self.busyAndRare(path).dropFirst().first?.name)
        let options = TraceModelOptions(valueHistoryOf: name)
        let session = TraceIndexSession(tracePath: path, given: index)
        let indexed = try session.model(builder: TraceModelBuilder(options: options), progress: nil).0
        #expect(!session.historyFromLightPoints)
        let byPass = try TraceFile.model(path: path, options: options).0
        #expect(IndexPositionsTests.history(indexed, name, path: path) == IndexPositionsTests.history(byPass, name, path: path))
    }
}
