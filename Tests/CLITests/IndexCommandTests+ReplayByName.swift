import BuiltProducts
import Foundation
@testable import ReactorInspector
import ReactorTraceFormat
import Testing

extension IndexCommandTests {
    /// `replay --filter name:` from the index reads only the chunks that mention a node of that
    /// name (its mentions), each alone from its light point: the pass's lines, byte for byte,
    /// whole and `--last`, reading fewer chunks than the trace has, and than a pass of the
    /// stretches holding them; a name on no chunk reads none.
    @Test(arguments: ["stress", "stress-threads", "threads-values"])
    func aNameIsReplayedFromTheChunksThatMentionIt(sample: String) throws {
        let path = try Self.copy(of: sample, as: "replay-name")
        let (index, _) = try TraceIndex.build(forTrace: path)
        #expect(index.mentions != nil)
        let (model, _) = try TraceFile.model(path: path)
        // The autorun (no values, so its lines come from chunks read alone) in the fewest chunks.
        let probe = TraceIndexSession(tracePath: path, note: { Issue.record("note: \($0)") })
        var fewest: (node: TraceNode, chunks: Int)?
        for node in model.nodes where node.kind == .computation {
            let chunks = try probe.nameChunks(filter: ReplayFilter(names: [node.name]), of: index, model: model,
                                              finalNames: [:])?.chunks.count ?? .max
            if fewest == nil || (chunks, node.name) < (fewest!.chunks, fewest!.node.name) { fewest = (node, chunks) }
        }
        let quiet = try #require(fewest).node
        func lines(_ filter: ReplayFilter, last: Int?, index use: TraceIndexUse) throws -> [UInt8] {
            var bytes: [UInt8] = []
            _ = try TraceReplay.lines(path: path, filter: filter, last: last, index: use) { bytes += $0 }
            return bytes
        }
        for last in [nil, 3] {
            let filter = ReplayFilter(names: [quiet.name])
            let session = TraceIndexSession(tracePath: path, note: { Issue.record("note: \($0)") })
            var answered: [UInt8] = []
            let answer = try session.replay(filter: filter, style: .plain, json: false, last: last) { answered += $0 }
            let byPasses = try lines(filter, last: last, index: .none)
            #expect(answer != nil)
            #expect(answered == byPasses, "\(sample) \(quiet.name) last \(last ?? 0)")
            #expect(!byPasses.isEmpty)
            let named = try #require(try session.nameChunks(filter: filter, of: index, model: model,
                                                            finalNames: [:]))
            // Only the chunks that mention it (each alone: for the last lines, or when they are at most half the trace's).
            if last != nil || named.chunks.count * 2 <= index.batches.count {
                #expect(session.batchesRead <= named.chunks.count, "\(sample): \(session.batchesRead) of \(named.chunks.count)")
            }
            if named.chunks.count * 2 <= index.batches.count {
                #expect(session.batchesRead < index.batches.count, "\(sample): \(session.batchesRead) of \(index.batches.count)")
            }
        }
        let nobody = TraceIndexSession(tracePath: path, note: { Issue.record("note: \($0)") })
        var printed: [UInt8] = []
        let none = try nobody.replay(filter: ReplayFilter(names: ["no-node-is-named-so"]), style: .plain, json: false,
                                     last: nil) { printed += $0 }
        #expect(none?.matched == 0)
        #expect(printed.isEmpty)
        #expect(nobody.batchesRead == 0)
    }

    /// A first `replay` of a trace without an index leaves the whole index (model, snapshots,
    /// light points, mentions) from its lookahead pass, and prints the pass's lines; later
    /// `replay`s answer from it the same, and none rewrites it.
    @Test(arguments: ["todos", "threads-values"])
    func theFirstReplayLeavesTheWholeIndex(sample: String) throws {
        let path = try Self.copy(of: sample, as: "replay-first")
        let indexPath = TraceIndex.path(forTrace: path)
        let (model, _) = try TraceFile.model(path: path)
        let name = try #require(model.nodes.filter(\.isComputation).max { ($0.runs.runs, $1.name) < ($1.runs.runs, $0.name) }).name
        for command in [["replay", path, "--filter", "name:\(name)", "--last", "5"], ["replay", path, "--filter", "kind:changed"]] {
            try? FileManager.default.removeItem(atPath: indexPath)
            let byPasses = try Self.run(command + ["--no-index"])
            #expect(!FileManager.default.fileExists(atPath: indexPath))
            let first = try Self.run(command)
            #expect(first.stdout == byPasses.stdout, "\(command)")
            #expect(first.stderr == byPasses.stderr, "\(command)")
            let left = try #require(try TraceIndex.load(forTrace: path))
            #expect(left.keepsModel && left.hasSnapshots)
            #expect(left.mentions != nil && left.lightPoints != nil && left.positions != nil)
        }
        let bytes = try #require(FileManager.default.contents(atPath: indexPath))
        try Self.expectSameAnswers(Self.replayCommandsByName(path, model: model), passes: .shared)
        #expect(FileManager.default.contents(atPath: indexPath) == bytes)
    }

    /// A mentions section edited under a CRC that fits (its tag then fails) is rebuilt with one
    /// note, and `replay` of a name answers as the pass does.
    @Test func hostileMentionsAreRebuiltWithOneNote() throws {
        let path = try Self.copy(of: "threads-values", as: "hostile-mentions")
        let indexPath = TraceIndex.path(forTrace: path)
        #expect(try Self.run(["index", path]).status == 0)
        let bytes = try #require(FileManager.default.contents(atPath: indexPath))
        try Self.edited(bytes, path: path) { index in
            var section = try #require(index.mentions).bytes
            section[section.count / 2] ^= 1
            index.mentions = IndexedMentions(bytes: section)
        }.write(to: URL(fileURLWithPath: indexPath))
        let question = try #require(try Self.replayCommandsByName(path).first)
        try Self.expectRefusedIndexRebuilt(question, noting: "its tag does not verify")
    }
}
