import BuiltProducts
import Foundation
@testable import ReactorInspector
import ReactorTraceFormat
import Testing

extension IndexCommandTests {
    /// The busiest computations of a trace (most runs first, then by name): the ones whose
    /// `why` groups every run by chain, over the whole trace.
    static func busiest(_ count: Int, in model: TraceModel) -> [TraceNode] {
        Array(model.nodes.filter(\.isComputation)
            .sorted { ($0.runs.runs, $1.name) > ($1.runs.runs, $0.name) }
            .prefix(count))
    }

    /// What `why` of a busy computation prints that is about every run, not the runs it lists:
    /// `--limit 0` lists none and still prints every chain's count, so a route that gave the
    /// listed runs' chains alone could not answer it.
    static func whyOfABusyComputation(_ path: String, _ target: String) -> [[String]] {
        [["why", path, target], ["why", path, target, "--json", "--limit", "5"],
         ["why", path, target, "--limit", "0"], ["why", path, target, "--json", "--limit", "0"]]
    }

    /// `why` of a busy computation right after a fresh `index` (each question after an index of
    /// its own) prints what the pass prints, text and JSON, with the default, a short and no
    /// list, by name and `#id`; on samples of one and four threads, with and without values,
    /// and a trace of many chunks. That first `why` is the pass that explains every computation
    /// (a busy computation is in more than a 16th of the chunks, which its chunks cannot answer
    /// without reading about as much as that pass), and the next busy one is then read from
    /// the index, the same bytes again.
    @Test(arguments: ["stress", "stress-threads", "threads-values", "stress-wide"])
    func whyOfABusyComputationRightAfterIndexIsThePassAnswer(sample: String) throws {
        let path: String
        if sample == "stress-wide" {
            let trace = try Self.wideStress.get()
            let folder = SampleTrace.directory.appendingPathComponent("index-why-busy-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            path = folder.appendingPathComponent("stress-wide.trace").path
            try FileManager.default.copyItem(atPath: trace.path, toPath: path)
        } else {
            path = try Self.copy(of: sample, as: "why-busy")
        }
        let indexPath = TraceIndex.path(forTrace: path)
        let indexed = try Self.run(["index", path])
        #expect(indexed.status == 0, "\(sample): \(indexed.stderr)")
        let built = try #require(try TraceIndex.load(forTrace: path))
        // The file `index` wrote (it writes the same bytes each time it runs on this trace, as
        // `wholeTraceAnswersAreTheSameFromTheKeptModel` checks), copied back before each question.
        let builtCopy = path + ".built-index"
        try FileManager.default.copyItem(atPath: indexPath, toPath: builtCopy)
        func freshIndex() throws -> TraceIndex {
            try? FileManager.default.removeItem(atPath: indexPath)
            try FileManager.default.copyItem(atPath: builtCopy, toPath: indexPath)
            return try #require(try TraceIndex.load(forTrace: path))
        }
        let model = try #require(built.model?.model)
        let busy = Self.busiest(3, in: model)
        #expect(busy.count == 3, "\(sample)")
        #expect(busy.allSatisfy { $0.runs.runs > 1 }, "\(sample)")
        if sample == "stress-wide" {
            #expect(built.batches.count >= TraceIndexSession.fewestChunksForWhyAlone)
            let session = TraceIndexSession(tracePath: path, note: { Issue.record("note: \($0)") })
            for node in busy {
                #expect(session.explanationFromChunks(of: node.name, limit: 20, model: model, index: built) == nil,
                        "\(node.name) is busy: its chunks are more than a 16th of the trace's")
            }
        }
        let targets = busy.prefix(2).map(\.name) + ["#\(busy[0].id)"]
        for target in targets {
            for command in Self.whyOfABusyComputation(path, target) {
                let index = try freshIndex()
                #expect(!index.explainsEveryComputation, "\(sample) \(command)")
                try Self.expectSameAnswers([command], passes: .shared)
                let after = try #require(try TraceIndex.load(forTrace: path))
                #expect(after.explainsEveryComputation, "\(sample) \(command)")
            }
        }
        // Every computation explained by that first `why`: the third busy one, never asked,
        // from the index alone, the pass's bytes.
        let kept = try #require(try TraceIndex.load(forTrace: path))
        #expect(kept.explainsEveryComputation)
        let keptBytes = try #require(FileManager.default.contents(atPath: indexPath))
        let session = TraceIndexSession(tracePath: path, note: { Issue.record("note: \($0)") })
        #expect(session.explanationFromIndex(of: busy[2].name, limit: 5) != nil, "\(sample)")
        #expect(session.batchesRead == 0, "\(sample)")
        try Self.expectSameAnswers(Self.whyOfABusyComputation(path, busy[2].name), passes: .shared)
        #expect(FileManager.default.contents(atPath: indexPath) == keptBytes, "\(sample): answered without rewriting")
    }
}
