import BuiltProducts
import Foundation
@testable import ReactorInspector
import ReactorInspectorServer
import ReactorTraceFormat
import Testing

extension IndexCommandTests {
    /// A trace of a wide stress graph in many chunks, where some computations run in few.
    static let wideStress = Result {
        try SampleTrace.record("stress", ["--computations", "200", "--writes", "1000"], file: "stress-wide")
    }

    /// `why` from the chunks that mention a computation (``TraceIndexSession/explanationFromChunks(of:limit:model:index:budget:)``),
    /// made to read them whatever they cost: the pass's report, byte for byte, for every
    /// computation (by name, and by `#id` for some), with a short and a long list; a trace
    /// with values is left to the pass.
    @Test(arguments: ["stress", "stress-threads", "stress-long", "threads-values"])
    func whyFromTheChunksOfItsComputationIsThePassAnswer(sample: String) throws {
        let path = try Self.copy(of: sample, as: "why-chunks")
        let (index, _) = try TraceIndex.build(forTrace: path)
        let model = try #require(index.model?.model)
        let computations = model.nodes.filter(\.isComputation)
        var targets = Array(Set(computations.map(\.name))).sorted()
        targets += computations.prefix(5).map { "#\($0.id)" }
        var fromChunks = 0
        for target in targets {
            for limit in [3, 50] {
                let session = TraceIndexSession(tracePath: path, note: { Issue.record("note: \($0)") })
                let answered = session.explanationFromChunks(of: target, limit: limit, model: model, index: index,
                                                             budget: .max)
                #expect(session.index != nil, "\(sample) \(target)")
                guard let answered else { continue }
                fromChunks += 1
                let byPass = try TraceFile.model(path: path, options: TraceModelOptions(explaining: [target],
                                                                                        whyEntryLimit: limit),
                                                 index: .none).0.why(target)
                #expect(answered == byPass, "\(sample) \(target) --limit \(limit)")
                #expect(answered.text() == byPass?.text(), "\(sample) \(target) --limit \(limit)")
            }
        }
        #expect(fromChunks == (sample == "threads-values" ? 0 : targets.count * 2), "\(sample)")
    }

    /// A stretch of chunks read from a light point, for a busy computation: each of its runs
    /// recorded from a chunk on is the pass's run there, chain and all, unless one of their chains
    /// began before the stretch (then it says so); from some chunks, it answers.
    @Test(arguments: ["stress", "stress-threads", "stress-long"])
    func aStretchFromALightPointRecordsThePassRunsOrSaysItCannot(sample: String) throws {
        let path = try Self.copy(of: sample, as: "why-stretch")
        let (index, _) = try TraceIndex.build(forTrace: path)
        let model = try #require(index.model?.model)
        let positions = try #require(index.positions), section = try #require(index.lightPoints)
        let points = try section.decode(batches: index.batches, actionCount: model.actions.count)
        let count = index.batches.count
        let busiest = model.nodes.filter(\.isComputation).sorted { ($0.runs.runs, $1.name) > ($1.runs.runs, $0.name) }
        var answered = 0, unknown = 0
        for target in busiest.prefix(3).map(\.name) {
            let named = try #require(try TraceIndexSession.explainedNodes(
                of: target, positions: positions, chunkCount: count, finalName: { id in
                    model.nodes.first { $0.id == id }?.name
                }))
            let session = TraceIndexSession(tracePath: path, note: { Issue.record("note: \($0)") })
            func read(_ stretch: ClosedRange<Int>, from counted: Int) -> TraceIndexSession.StretchRead {
                session.readStretch(stretch, countingFrom: counted, target: target, limit: 50, firstNamed: named,
                                    points: points, model: model, index: index,
                                    describe: { id in model.nodes.first { $0.id == id }.map { ($0.name, $0.kind) } })
            }
            for counted in 1..<count {
                let exact = read(0...(count - 1), from: counted)
                guard case .records = exact else {
                    Issue.record("\(sample) \(target): from the start, \(exact)")
                    continue
                }
                for start in Set([counted, counted - 1]) {
                    let alone = read(start...(count - 1), from: counted)
                    if alone == .unknownBefore {
                        unknown += 1
                    } else {
                        answered += 1
                        #expect(alone == exact, "\(sample) \(target) from chunk \(start), counted from \(counted)")
                    }
                }
            }
        }
        #expect(answered > 0, "\(sample)")
        #expect(unknown > 0, "\(sample)")
    }

    /// `why` right after `index` answers the same with and without the index, for a
    /// computation in few chunks (read from them, leaving the index as it was) and for a busy
    /// one (the pass that explains every computation).
    @Test func firstWhyAfterIndexIsThePassAnswer() throws {
        let trace = try Self.wideStress.get()
        let folder = SampleTrace.directory.appendingPathComponent("index-why-first-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("stress-wide.trace").path
        try FileManager.default.copyItem(atPath: trace.path, toPath: path)
        let (index, _) = try TraceIndex.build(forTrace: path)
        #expect(index.batches.count >= TraceIndexSession.fewestChunksForWhyAlone)
        let model = try #require(index.model?.model)
        let computations = model.nodes.filter(\.isComputation)
        let quiet = try #require(computations.min { ($0.runs.runs, $0.name) < ($1.runs.runs, $1.name) })
        let busiest = try #require(computations.max { ($0.runs.runs, $1.name) < ($1.runs.runs, $0.name) })
        let indexPath = TraceIndex.path(forTrace: path)
        let built = try #require(FileManager.default.contents(atPath: indexPath))
        let session = TraceIndexSession(tracePath: path, note: { Issue.record("note: \($0)") })
        #expect(session.explanationFromIndex(of: quiet.name, limit: 50) != nil)
        #expect(session.batchesRead * 8 <= index.batches.count, "\(session.batchesRead) of \(index.batches.count)")
        try Self.expectSameAnswers([["why", path, quiet.name], ["why", path, quiet.name, "--json", "--limit", "2"],
                                    ["why", path, "#\(quiet.id)"]], passes: .shared)
        #expect(FileManager.default.contents(atPath: indexPath) == built)
        // `serve`'s why panel on the finished trace: the same chunks, the bytes `why --json` prints.
        let printed = try Self.run(["why", path, quiet.name, "--json", "--limit", "10", "--no-index"])
        let api = InspectorAPI(follower: TraceFollower(path: path))
        let answer = api.why(quiet.name, limit: 10)
        #expect(answer.status == 200)
        #expect(String(decoding: answer.body, as: UTF8.self) == printed.stdout)
        #expect(FileManager.default.contents(atPath: indexPath) == built)
        try Self.expectSameAnswers([["why", path, busiest.name]], passes: .shared)
        #expect(try TraceIndex.load(forTrace: path)?.explainsEveryComputation == true)
    }
}

extension IndexCommandTests {
    /// The sections `why` reads a quiet computation's chunks from, edited under a CRC that fits
    /// (the tag then fails) or damaged and tagged with this user's key (their own checks refuse
    /// them): the pass's answer, one note, the index rebuilt.
    @Test func whyFromRefusedChunkSectionsIsThePassAnswerAndRebuilds() throws {
        let trace = try Self.wideStress.get()
        for damage in ["mentions", "light points"] {
            let folder = SampleTrace.directory.appendingPathComponent("index-why-hostile-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let path = folder.appendingPathComponent("stress-wide.trace").path
            try FileManager.default.copyItem(atPath: trace.path, toPath: path)
            let indexPath = TraceIndex.path(forTrace: path)
            let (index, _) = try TraceIndex.build(forTrace: path)
            let model = try #require(index.model?.model)
            let quiet = try #require(model.nodes.filter(\.isComputation)
                .min { ($0.runs.runs, $0.name) < ($1.runs.runs, $1.name) })
            let original = try #require(FileManager.default.contents(atPath: indexPath))
            if damage == "mentions" {
                try Self.edited(original, path: path) { index in
                    var section = try #require(index.mentions).bytes
                    section[section.count / 2] ^= 1
                    index.mentions = IndexedMentions(bytes: section)
                }.write(to: URL(fileURLWithPath: indexPath))
                try Self.expectRefusedIndexRebuilt(["why", path, quiet.name], noting: "its tag does not verify", damage)
            } else {
                var edited = index
                let section = try #require(index.lightPoints)
                edited.lightPoints = IndexedLightPoints(bytes: Array(section.bytes.prefix(section.bytes.count / 2)))
                let bodyEnd = 28 + Int([UInt8](original)[12..<16].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
                try Data(edited.encoded() + [UInt8](original)[bodyEnd...]).write(to: URL(fileURLWithPath: indexPath))
                try Self.expectRefusedIndexRebuilt(["why", path, quiet.name], noting: "damaged index", damage)
            }
        }
    }
}
