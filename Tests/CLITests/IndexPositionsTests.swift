import BuiltProducts
import Foundation
@testable import ReactorInspector
import ReactorTraceFormat
import Testing

/// The index's per-node positions (docs/INSPECT.md, "The index"): `history NAME` of a
/// trace with values reads only the chunks of the nodes it follows, each from the snapshot
/// before it (the value rows left out: they answer first, IndexValueRowsTests), and says what a pass says, byte for byte; `state --at end` reads nothing
/// but the snapshot after the last chunk; a bad positions section is rebuilt with one note.
@Suite struct IndexPositionsTests {
    static let samples = ["todos", "counter-values", "profile-values", "stress-threads-values", "threads-values"]

    static func copy(_ sample: String, as name: String) throws -> String {
        try IndexCommandTests.copy(of: sample, as: "positions-\(name)")
    }

    /// Builds the index with `snapshotBytes` (nil: as the budget allows).
    static func index(_ path: String, snapshotBytes: String?) throws {
        let built = try BuiltProducts.run("reactor-inspect", ["index", path],
                                          environment: snapshotBytes.map { ["REACTOR_INDEX_SNAPSHOT_BYTES": $0] } ?? [:])
        #expect(built.status == 0, "\(built.stderr)")
    }

    /// The names `history` is asked about: every node with a value, by name and by #id (bounded), and one no node has;
    /// from a pass, once for each trace content (``TraceContentMemo``).
    static func names(_ path: String) throws -> [String] {
        try askedNames.value(forTraceAt: path) { try namesByAPass(path) }
    }

    private static let askedNames = TraceContentMemo<[String]>()

    private static func namesByAPass(_ path: String) throws -> [String] {
        let (model, _) = try TraceFile.model(path: path, options: TraceModelOptions(tracksValues: true))
        let valued = model.nodes.filter { $0.value != nil }
        let step = max(1, valued.count / 12)
        let chosen = stride(from: 0, to: valued.count, by: step).map { valued[$0] }
        return chosen.map(\.name) + chosen.prefix(3).map { "#\($0.id)" } + ["no-such-node"]
    }

    /// What `history` prints for `name` (text and JSON), or its error.
    static func history(_ model: TraceModel, _ name: String, path: String) -> [String] {
        do {
            let report = try ValueHistoryReport(model: model, name: name, path: path)
            return [report.text(), (try? JSONText.encode(report.entries)) ?? "-"]
        } catch {
            return ["\(error)"]
        }
    }

    /// The model of a pass following the values of `name` (`TraceModelOptions(valueHistoryOf:)`), once for
    /// each trace content and name: the pass reads the trace alone, so the copies tests make of one
    /// sample, each for the index it builds, need it once.
    static func historyByAPass(_ path: String, _ name: String) throws -> TraceModel {
        try historyModels.value(forTraceAt: path, name) {
            try TraceFile.model(path: path, options: TraceModelOptions(valueHistoryOf: name)).0
        }
    }

    private static let historyModels = TraceContentMemo<TraceModel>()

    /// Expects `history` of `name` from the index beside `path` to be the pass's (text and JSON, or the
    /// error); returns the session that answered, to tell what it read, and its model.
    @discardableResult
    static func expectIndexedHistoryIsThePass(_ path: String, _ name: String,
                                              sourceLocation: SourceLocation = #_sourceLocation) throws
        -> (session: TraceIndexSession, indexed: TraceModel) {
        let options = TraceModelOptions(valueHistoryOf: name)
        let byPass = try historyByAPass(path, name)
        let session = TraceIndexSession(tracePath: path, note: { Issue.record("note: \($0)") })
        let indexed = try session.model(builder: TraceModelBuilder(options: options), progress: nil).0
        #expect(history(indexed, name, path: path) == history(byPass, name, path: path), "\(name)",
                sourceLocation: sourceLocation)
        return (session, indexed)
    }

    /// Every node's history from the positions is the pass's, with a snapshot after every chunk
    /// and with the snapshots the budget allows; none of those answers rebuilt the index.
    @Test(arguments: samples)
    func historyFromThePositionsIsTheHistoryByAPass(sample: String) throws {
        for snapshotBytes in ["1", nil] {
            let path = try Self.copy(sample, as: "history")
            try Self.index(path, snapshotBytes: snapshotBytes)
            // Without the value rows, which answer before the positions (IndexValueRowsTests).
            try IndexValueRowsTests.rewriteIndex(path) { $0.valueRows = nil }
            let indexBytes = FileManager.default.contents(atPath: TraceIndex.path(forTrace: path))
            let index = try #require(try TraceIndex.load(forTrace: path))
            #expect(index.positions != nil)
            var fewerChunks = false
            for name in try Self.names(path) {
                let session = try Self.expectIndexedHistoryIsThePass(path, name).session
                // No more than a pass; twice that when reading chunks alone from light points gave up
                // (values whose causes lie in chunks not read, all through the trace) and a pass answered.
                #expect(session.batchesRead <= index.batches.count * (session.historyFromLightPoints ? 1 : 2), "\(name)")
                fewerChunks = fewerChunks || session.batchesRead < index.batches.count
            }
            // On a trace of several chunks, some history reads fewer than all of them.
            if index.batches.count > 3 { #expect(fewerChunks) }
            #expect(FileManager.default.contents(atPath: TraceIndex.path(forTrace: path)) == indexBytes)
        }
    }

    /// The binary, both ways, on a few of those names.
    @Test func historyCommandsAreTheSameBothWays() throws {
        let path = try Self.copy("threads-values", as: "cli")
        try Self.index(path, snapshotBytes: "1")
        try IndexValueRowsTests.rewriteIndex(path) { $0.valueRows = nil }
        let names = try Self.names(path)
        try IndexCommandTests.expectSameAnswers(names.prefix(4).flatMap { name in
            [["history", path, name], ["history", path, name, "--json"]]
        })
    }

    /// Without an index, the first `history` leaves one with the model, snapshots and positions,
    /// and the next answers from them.
    @Test func theFirstHistoryLeavesThePositions() throws {
        let path = try Self.copy("threads-values", as: "first")
        let name = try #require(try Self.names(path).first)
        try IndexCommandTests.expectSameAnswers([["history", path, name]])
        let index = try #require(try TraceIndex.load(forTrace: path))
        #expect(index.keepsModel && index.hasSnapshots && index.positions != nil)
    }

    /// `state --at end` starts from the snapshot after the last chunk: no chunk is read.
    @Test(arguments: ["todos", "threads-values"])
    func stateAtTheEndReadsNoChunk(sample: String) throws {
        let path = try Self.copy(sample, as: "end")
        try Self.index(path, snapshotBytes: nil)
        let session = TraceIndexSession(tracePath: path, note: { Issue.record("note: \($0)") })
        let (model, _, _) = try TraceFile.model(path: path, at: .end, index: .given(try #require(session.index)))
        let byPass = try TraceFile.model(path: path, at: .end)
        #expect(StateReport(model: model, moment: byPass.1, filter: nil).text(tracePath: path)
                == StateReport(model: byPass.0, moment: byPass.1, filter: nil).text(tracePath: path))
        _ = try session.model(builder: TraceModelBuilder(options: TraceModelOptions(tracksValues: true)), progress: nil)
        #expect(session.batchesRead == 0)
        #expect(session.resumedFrom?.batch == session.index?.batches.count)
    }

    /// A positions section under this user's tag with a chunk outside the trace: never used,
    /// one note, the pass's answer, and rebuilt.
    @Test func aPositionOutsideTheTraceIsRebuiltWithOneNote() throws {
        let path = try Self.copy("threads-values", as: "hostile")
        try Self.index(path, snapshotBytes: "1")
        let indexPath = TraceIndex.path(forTrace: path)
        var index = try #require(try TraceIndex.load(forTrace: path))
        let original = try #require(FileManager.default.contents(atPath: indexPath))
        let bodyEnd = 28 + Int([UInt8](original)[12..<16].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
        let nodes = try #require(try index.positions?.nodes(batchCount: index.batches.count))
        var fields = IndexFieldWriter()
        fields.put(nodes.count)
        for node in nodes {
            fields.put(node.id)
            fields.put(node.names.count)
            var chunk = 0
            for step in node.names {
                fields.put(step.chunk - chunk)
                fields.put(optional: step.name)
                chunk = step.chunk
            }
            // Each node's list: one run (not a bitmap) that goes one chunk past the table.
            fields.put(false); fields.put(1); fields.put(0); fields.put(index.batches.count)
        }
        index.positions = IndexedPositions(bytes: fields.bytes)
        index.valueRows = nil
        // Encoded and tagged with this user's key: only the section's own checks can refuse it.
        try Data(index.encoded() + [UInt8](original)[bodyEnd...]).write(to: URL(fileURLWithPath: indexPath))
        let name = try #require(try Self.names(path).first)
        try IndexCommandTests.expectRefusedIndexRebuilt(["history", path, name], noting: "damaged index")
    }
}
