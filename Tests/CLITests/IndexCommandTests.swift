import BuiltProducts
import Foundation
@testable import ReactorInspector
import ReactorInspectorServer
import ReactorTraceFormat
import Testing
import TraceForgery

/// The index beside a trace (TRACE.rindex) changes how much of the trace a
/// question reads, never its answer: every command that uses it prints the
/// same bytes, on stdout and stderr, with the same status, with and without it;
/// and a bad index is rebuilt with one note, never used.
@Suite struct IndexCommandTests {
    /// The samples, and a trace written from four threads with values.
    static let traces = ["counter", "todos", "profile", "stress", "stress-threads", "threads-values"]

    static let threadsWithValues = Result {
        try SampleTrace.record("stress", ["--computations", "40", "--writes", "600", "--threads", "4",
                                          "--trace-values", "64"], file: "threads-values")
    }

    /// A copy of the trace in a folder of its own, so that its index is this test's alone.
    static func copy(of sample: String, as name: String) throws -> String {
        let trace = sample == "threads-values" ? try threadsWithValues.get() : try SampleTrace.named(sample)
        let folder = SampleTrace.directory.appendingPathComponent("index-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("\(sample).trace").path
        try FileManager.default.copyItem(atPath: trace.path, toPath: path)
        return path
    }

    static func run(_ arguments: [String]) throws -> BuiltProducts.Run {
        try BuiltProducts.run("reactor-inspect", arguments)
    }

    /// Moments across the trace: before it, inside it (a tenth, a half, nine tenths), past its end; and actions.
    static func moments(of path: String) throws -> [String] {
        moments(of: try TraceFile.model(path: path).0)
    }

    /// ``moments(of:)-(String)`` of a trace whose plain model is `model`.
    static func moments(of model: TraceModel) -> [String] {
        let times = [0, 1, 5, 9].map { model.firstTimestamp + model.durationNanoseconds / 10 * UInt64($0) }
            + [model.lastTimestamp + 1_000_000]
        return times.map { "\(Double($0) / 1000)us" } + ["action:1", "action:2", "action:7", "action:100000"]
    }

    static func commands(_ path: String, at moment: String) -> [[String]] {
        [["state", path, "--at", moment], ["state", path, "--at", moment, "--json"],
         ["graph", path, "--at", moment, "--format", "dot", "-o", "-"],
         ["replay", path, "--filter", "to:\(moment.hasPrefix("action:") ? "1ms" : moment)"]]
    }

    /// Questions about the whole trace the plain model answers (kept in the index).
    static func wholeTraceCommands(_ path: String) -> [[String]] {
        [["hot", path], ["hot", path, "--json", "--top", "1000"], ["summary", path],
         ["summary", path, "--json"], ["graph", path, "--format", "dot", "-o", "-"],
         ["graph", path, "--top", "5", "--format", "json", "-o", "-"],
         ["export", path, "--format", "otlp", "-o", "-"]]
    }

    /// `replay` with filters: none, `--json`, `--last` (1, 20, more than the lines), by kind,
    /// by the busiest computation's name, time windows (a tenth of the trace, from and to
    /// alone) and their combinations; by names from the index's mentions: the quietest
    /// computation's, the most changed other node's (values), an action's, one no node has;
    /// `model` is the trace's plain model.
    static func replayCommands(_ path: String, model: TraceModel) -> [[String]] {
        replayCommandsByWindow(path, model: model) + replayCommandsByName(path, model: model)
    }

    /// `replay` by a name: the busiest and the quietest computation's, the most changed other
    /// node's (whose lines carry old → new on a trace with values), an action's, one no node has;
    /// whole, `--last`, `--json`, with `to:`/`from:` and kinds.
    static func replayCommandsByName(_ path: String) throws -> [[String]] {
        replayCommandsByName(path, model: try TraceFile.model(path: path).0)
    }

    /// ``replayCommandsByName(_:)`` of a trace whose plain model is `model`.
    static func replayCommandsByName(_ path: String, model: TraceModel) -> [[String]] {
        func at(_ tenth: UInt64) -> String {
            "\(Double(model.firstTimestamp + model.durationNanoseconds / 10 * tenth) / 1000)us"
        }
        let computations = model.nodes.filter(\.isComputation)
        let busy = computations.max { ($0.runs.runs, $1.name) < ($1.runs.runs, $0.name) }?.name ?? "x"
        let quiet = computations.min { ($0.runs.runs, $0.name) < ($1.runs.runs, $1.name) }?.name ?? "x"
        let changing = model.nodes.filter { !$0.isComputation }
            .max { ($0.changes, $1.name) < ($1.changes, $0.name) }?.name ?? "x"
        let replay = ["replay", path]
        var commands = [replay + ["--filter", "name:\(quiet)"], replay + ["--filter", "name:\(quiet)", "--last", "20"],
                        replay + ["--filter", "name:\(quiet)", "--json"],
                        replay + ["--filter", "to:\(at(5))", "--filter", "name:\(busy)"],
                        replay + ["--filter", "from:\(at(5))", "--filter", "name:\(busy)", "--last", "20", "--json"],
                        replay + ["--filter", "kind:rerun", "--filter", "name:\(busy)", "--last", "5"],
                        replay + ["--filter", "name:\(changing)"], replay + ["--filter", "name:\(changing)", "--last", "20"],
                        replay + ["--filter", "name:\(changing)", "--filter", "kind:depend", "--last", "20"],
                        replay + ["--filter", "name:no-node-is-named-so"]]
        if let action = model.actions.first { commands.append(replay + ["--filter", "name:\(action.name)", "--last", "20"]) }
        return commands
    }

    /// `replay` with filters: none, `--json`, `--last`, by kind, by the busiest computation's
    /// name, time windows and their combinations.
    static func replayCommandsByWindow(_ path: String, model: TraceModel) -> [[String]] {
        func at(_ tenth: UInt64) -> String {
            "\(Double(model.firstTimestamp + model.durationNanoseconds / 10 * tenth) / 1000)us"
        }
        let name = model.nodes.filter(\.isComputation).max { ($0.runs.runs, $1.name) < ($1.runs.runs, $0.name) }?.name ?? "x"
        let replay = ["replay", path]
        return [replay, replay + ["--json"], replay + ["--last", "1"], replay + ["--last", "20"],
                replay + ["--last", "100000000", "--json"], replay + ["--filter", "kind:changed"],
                replay + ["--filter", "kind:changed", "--last", "20", "--json"], replay + ["--filter", "name:\(name)"],
                replay + ["--filter", "name:\(name)", "--last", "20"], replay + ["--filter", "value", "--last", "5"],
                replay + ["--filter", "from:\(at(3))", "--filter", "to:\(at(4))"],
                replay + ["--filter", "from:\(at(5))", "--filter", "to:\(at(6))", "--filter", "kind:changed", "--json"],
                replay + ["--filter", "to:\(at(2))", "--last", "20"],
                replay + ["--filter", "from:\(at(9))", "--filter", "rerun", "--last", "7"],
                replay + ["--filter", "name:\(name)", "--filter", "from:\(at(1))", "--filter", "to:\(at(7))", "--last", "3"]]
    }

    /// `why` of the busiest computation and `history` of the most changed other node, in text
    /// and JSON, by name and by #id, with lists shorter and longer than the index keeps (0, 50, 500), of
    /// the name most nodes share, and names no node has (answered with suggestions).
    static func explanationCommands(_ path: String) throws -> [[String]] {
        explanationCommands(path, model: try TraceFile.model(path: path).0)
    }

    /// ``explanationCommands(_:)`` of a trace whose plain model is `model`.
    static func explanationCommands(_ path: String, model: TraceModel) -> [[String]] {
        var commands: [[String]] = []
        if let busiest = model.nodes.filter(\.isComputation).max(by: { ($0.runs.runs, $1.name) < ($1.runs.runs, $0.name) }) {
            commands += [["why", path, busiest.name], ["why", path, busiest.name, "--json"],
                         ["why", path, "#\(busiest.id)"], ["why", path, "#\(busiest.id)", "--json", "--limit", "3"],
                         ["why", path, busiest.name, "--limit", "0"], ["why", path, busiest.name, "--limit", "500"],
                         ["why", path, String(busiest.name.dropLast()) + "?"], ["why", path, "#999999"],
                         ["why", path, busiest.name, "--limit", "50"], ["why", path, busiest.name, "--limit", "50", "--json"]]
        }
        if let quiet = model.nodes.filter(\.isComputation).min(by: { ($0.runs.runs, $0.name) < ($1.runs.runs, $1.name) }) {
            commands.append(["why", path, quiet.name])
        }
        // Computations not asked about before (the first `why` explains every one for the index).
        let computations = model.nodes.filter(\.isComputation).sorted { ($0.name, $0.id) < ($1.name, $1.id) }
        for position in Set([computations.count / 3, computations.count * 2 / 3, computations.count - 1]).sorted()
        where computations.indices.contains(position) {
            let computation = computations[position]
            commands += [["why", path, computation.name, "--json"], ["why", path, "#\(computation.id)", "--limit", "2"]]
        }
        // The name most nodes share (their runs explained together, or no computation of that name).
        let byName = Dictionary(grouping: model.nodes, by: \.name).filter { $0.value.count > 1 }
        if let shared = byName.keys.max(by: { (byName[$0]!.count, $1) < (byName[$1]!.count, $0) }) {
            commands += [["why", path, shared], ["why", path, shared, "--json", "--limit", "50"]]
        }
        if let changing = model.nodes.filter({ !$0.isComputation }).max(by: { ($0.changes, $1.name) < ($1.changes, $0.name) }) {
            commands += [["history", path, changing.name], ["history", path, changing.name, "--json"],
                         ["history", path, "#\(changing.id)"], ["history", path, String(changing.name.dropLast()) + "?"]]
        }
        return commands
    }

    /// `question` asked over an index whose section the command must refuse: the pass's
    /// answer (output and status) with one note on the index file, saying `note`; asked
    /// again, the rebuilt index gives the same answer with no note.
    static func expectRefusedIndexRebuilt(_ question: [String], noting note: String, _ label: String = "") throws {
        let byPass = try run(question + ["--no-index"])
        let answered = try run(question)
        #expect(answered.stdout == byPass.stdout, "\(label)")
        #expect(answered.status == byPass.status, "\(label)")
        let notes = answered.stderrLines.filter { $0.contains(".rindex") }
        #expect(notes.count == 1, "\(label): \(answered.stderr)")
        #expect(notes.first?.contains(note) == true, "\(label): \(answered.stderr)")
        let again = try run(question)
        #expect(again.stdout == byPass.stdout, "\(label)")
        #expect(!again.stderr.contains(".rindex"), "\(label): \(again.stderr)")
    }

    /// Each command answers with the index as with `--no-index` (the pass): stdout, stderr and
    /// status; the pass's answers are those `passes` keeps while the files they read are unchanged.
    static func expectSameAnswers(_ commands: [[String]], passes: PassAnswers = PassAnswers()) throws {
        for command in commands {
            let byPasses = try passes.run(command)
            let indexed = try run(command)
            #expect(indexed.stdout == byPasses.stdout, "\(command)")
            #expect(indexed.stderr == byPasses.stderr, "\(command)")
            #expect(indexed.status == byPasses.status, "\(command)")
        }
    }

    /// The plain model the index keeps answers as the pass does, and a pass that
    /// builds it leaves it in an index that lacks it (one that only `replay` left).
    @Test(arguments: traces)
    func wholeTraceAnswersAreTheSameFromTheKeptModel(sample: String) throws {
        let path = try Self.copy(of: sample, as: "model")
        let indexPath = TraceIndex.path(forTrace: path)
        let passes = PassAnswers.shared
        let (model, _) = try TraceFile.model(path: path)
        // `export --format chrome` leaves the chunk table only.
        #expect(try Self.run(["export", path, "--format", "chrome", "-o", path + ".json"]).status == 0)
        let withoutModel = try #require(try TraceIndex.load(forTrace: path))
        #expect(!withoutModel.keepsModel)
        #expect(!withoutModel.hasSnapshots)
        try Self.expectSameAnswers(Self.wholeTraceCommands(path), passes: passes)
        let kept = try #require(try TraceIndex.load(forTrace: path))
        #expect(kept.keepsModel)
        #expect(kept.explainedTargets.isEmpty)
        #expect(kept.hasSnapshots)
        #expect(kept.batches == withoutModel.batches)
        // Rebuilt by `index`: the same bytes, and the same answers again.
        let bytes = try #require(FileManager.default.contents(atPath: indexPath))
        #expect(try Self.run(["index", path]).status == 0)
        #expect(FileManager.default.contents(atPath: indexPath) == bytes)
        try Self.expectSameAnswers(Self.wholeTraceCommands(path) + Self.replayCommands(path, model: model), passes: passes)
        #expect(FileManager.default.contents(atPath: indexPath) == bytes)
        // A `why` keeps its explanation: asked again (or with a shorter list), it answers from
        // the index as the pass does, and nothing rewrites the index.
        try Self.expectSameAnswers(Self.explanationCommands(path, model: model), passes: passes)
        let explained = try #require(try TraceIndex.load(forTrace: path))
        #expect(explained.keepsModel && explained.explainsEveryComputation)
        #expect(explained.batches == withoutModel.batches)
        let explainedBytes = try #require(FileManager.default.contents(atPath: indexPath))
        try Self.expectSameAnswers(Self.explanationCommands(path, model: model), passes: passes)
        try Self.expectSameAnswers(Self.wholeTraceCommands(path), passes: passes)
        #expect(FileManager.default.contents(atPath: indexPath) == explainedBytes)
        // Rebuilt by `index`: the explanations kept, the same bytes.
        let rebuilt = try Self.run(["index", path])
        #expect(rebuilt.status == 0)
        #expect(rebuilt.stdout.contains("every computation's explanation"))
        #expect(FileManager.default.contents(atPath: indexPath) == explainedBytes)
    }

    /// Without an index, the first `why` leaves one with the plain model and its
    /// explanation (one pass); the answers are the pass's.
    @Test func theFirstWhyLeavesTheModelAndTheExplanations() throws {
        let path = try Self.copy(of: "threads-values", as: "first-why")
        let commands = try Self.explanationCommands(path)
        let first = try #require(commands.first)
        let passes = PassAnswers.shared
        let byPasses = try passes.run(first)
        let answered = try Self.run(first)
        #expect(answered.stdout == byPasses.stdout)
        #expect(answered.stderr == byPasses.stderr)
        let index = try #require(try TraceIndex.load(forTrace: path))
        #expect(index.keepsModel)
        #expect(index.explainsEveryComputation)
        #expect(index.explainedTargets.isEmpty)
        try Self.expectSameAnswers(commands + Self.wholeTraceCommands(path), passes: passes)
    }

    /// After the first `why`, `why` of every computation (by name and by #id, with the default
    /// list and shorter ones) reads no event of the trace and answers as a pass explaining it
    /// alone; a longer list than the index keeps is a pass.
    @Test(arguments: traces)
    func everyComputationIsExplainedFromTheIndexAfterTheFirstWhy(sample: String) throws {
        let path = try Self.copy(of: sample, as: "every-why")
        let (plain, _) = try TraceFile.model(path: path)
        let computations = plain.nodes.filter(\.isComputation)
        let first = try #require(computations.first)
        func asked(_ target: String, limit: Int) throws -> (WhyReport?, batches: Int) {
            let session = TraceIndexSession(tracePath: path, note: { Issue.record("note: \($0)") })
            let options = TraceModelOptions(explaining: [target], whyEntryLimit: limit)
            let model = try session.model(builder: TraceModelBuilder(options: options), progress: nil).0
            return (model.why(target), session.batchesRead)
        }
        func byPass(_ target: String, limit: Int) throws -> WhyReport? {
            try TraceFile.model(path: path, options: TraceModelOptions(explaining: [target], whyEntryLimit: limit)).0.why(target)
        }
        let building = try asked(first.name, limit: 20)
        #expect(building.batches > 0)
        #expect(building.0 == (try byPass(first.name, limit: 20)))
        let index = try #require(try TraceIndex.load(forTrace: path))
        #expect(index.explainsEveryComputation)
        let targets = Set(computations.flatMap { [$0.name, "#\($0.id)"] })
        for (position, target) in targets.sorted().enumerated() {
            for limit in position % 5 == 0 ? [20, 3, 0] : [20] {
                let answer = try asked(target, limit: limit)
                #expect(answer.batches == 0, "\(target) --limit \(limit)")
                #expect(answer.0 == (try byPass(target, limit: limit)), "\(target) --limit \(limit)")
            }
        }
        // More runs one by one than the index lists: a pass, whose explanation is then kept.
        if let busiest = computations.max(by: { $0.runs.runs < $1.runs.runs }), busiest.runs.runs > 21 {
            #expect(try asked(busiest.name, limit: 21).batches > 0)
            let kept = try asked(busiest.name, limit: 21)
            #expect(kept.batches == 0)
            #expect(kept.0 == (try byPass(busiest.name, limit: 21)))
        }
    }

    /// Every computation's explanations, cut anywhere or with any byte changed, decode to an
    /// error or to an explanation (the keyed tag keeps a changed section from being used),
    /// never to a crash or a hang.
    @Test func damagedExplanationsOfEveryComputationNeverCrashTheDecoder() throws {
        let path = try Self.copy(of: "todos", as: "all-damaged")
        let (plain, _) = try TraceFile.model(path: path)
        let computation = try #require(plain.nodes.filter(\.isComputation).max { $0.runs.runs < $1.runs.runs })
        #expect(try Self.run(["why", path, computation.name]).status == 0)
        let section = try #require(try TraceIndex.load(forTrace: path)?.allExplanations)
        #expect(try section.targets().contains(computation.name))
        let whole = try #require(try AllExplanations.decode(section.bytes, target: computation.name))
        #expect(!whole.entries.isEmpty)
        for position in section.bytes.indices {
            for change: UInt8 in [0x01, 0x7F, 0x80] {
                var bytes = section.bytes
                bytes[position] ^= change
                _ = try? AllExplanations.decode(bytes, target: computation.name)
            }
            #expect((try? AllExplanations.decode(Array(section.bytes.prefix(position)), target: computation.name)) == nil)
        }
    }

    /// `serve`'s why panel on a finished trace whose index explains every computation answers
    /// from it, reading no event (its pass counts none), with the bytes `why --json` prints;
    /// with `--no-index` it is a pass.
    @Test func serveExplainsFromTheIndexWithoutReading() throws {
        let path = try Self.copy(of: "threads-values", as: "serve-why")
        let (plain, _) = try TraceFile.model(path: path)
        let computations = plain.nodes.filter(\.isComputation).sorted { $0.runs.runs > $1.runs.runs }
        #expect(computations.count > 1)
        #expect(try Self.run(["why", path, computations[0].name]).status == 0)
        let printed = try Self.run(["why", path, computations[1].name, "--json", "--limit", "10", "--no-index"])
        for answersFromIndex in [true, false] {
            let api = InspectorAPI(follower: TraceFollower(path: path), answersFromIndex: answersFromIndex)
            let pass = TracePass()
            let answer = pass.run { api.why(computations[1].name, limit: 10) }
            #expect(answer.status == 200)
            #expect(String(decoding: answer.body, as: UTF8.self) == printed.stdout)
            #expect((pass.eventsRead == 0) == answersFromIndex, "\(pass.eventsRead) events read")
        }
    }

    /// `serve`'s Events panel (`/api/replay`) on a finished trace with an index answers from it:
    /// the lines `replay --last N` prints by a pass, reading only the chunks after the snapshot
    /// before them (matched: null, as it did not read back to the start); with `--no-index` a
    /// pass, which counts every match.
    @Test func serveReplaysFromTheIndex() throws {
        let path = try Self.copy(of: "threads-values", as: "serve-replay")
        let (index, _) = try TraceIndex.build(forTrace: path, progress: nil, snapshotInterval: 1)
        #expect(index.batches.count > 4)
        for (terms, arguments) in [([String](), [String]()), (["kind:changed"], ["--filter", "kind:changed"])] {
            let printed = try Self.run(["replay", path, "--json", "--no-index"] + arguments).stdout
                .split(separator: "\n").map(String.init)
            #expect(printed.count > 20)
            for answersFromIndex in [true, false] {
                let api = InspectorAPI(follower: TraceFollower(path: path), answersFromIndex: answersFromIndex)
                let pass = TracePass()
                let answer = pass.run { api.replay(terms: terms, limit: 20) }
                #expect(answer.status == 200)
                let body = String(decoding: answer.body, as: UTF8.self)
                let matched = answersFromIndex ? "null" : String(printed.count)
                #expect(body == "{\"matched\":\(matched),\"lines\":[" + printed.suffix(20).joined(separator: ",") + "]}\n")
                #expect((pass.eventsRead < index.events / 2) == answersFromIndex, "\(pass.eventsRead) events read")
            }
        }
    }

    /// Once the index keeps an explanation, `why` of it reads no event of the trace (the
    /// session says how many batches it read), unless it asks for more runs one by one
    /// than its pass listed; `why` and `history` of an unknown name, and `history` of a
    /// trace without values, read none.
    @Test func keptAnswersReadNoEvent() throws {
        let path = try Self.copy(of: "stress", as: "no-read")
        let (plain, _) = try TraceFile.model(path: path)
        let busiest = try #require(plain.nodes.filter(\.isComputation).max { $0.runs.runs < $1.runs.runs })
        #expect(busiest.runs.runs > 21)
        func asked(_ options: TraceModelOptions) throws -> (TraceModel, batches: Int) {
            let session = TraceIndexSession(tracePath: path, note: { Issue.record("note: \($0)") })
            let model = try session.model(builder: TraceModelBuilder(options: options), progress: nil).0
            return (model, session.batchesRead)
        }
        let why = TraceModelOptions(explaining: [busiest.name], whyEntryLimit: 20)
        let byPass = try TraceFile.model(path: path, options: why).0.why(busiest.name)
        let building = try asked(why)
        #expect(building.batches > 0)
        #expect(building.0.why(busiest.name) == byPass)
        for limit in [20, 3] {
            let options = TraceModelOptions(explaining: [busiest.name], whyEntryLimit: limit)
            let kept = try asked(options)
            #expect(kept.batches == 0)
            #expect(kept.0.why(busiest.name) == (try TraceFile.model(path: path, options: options).0.why(busiest.name)))
        }
        // Another computation, never asked about: from the explanations the first `why` left.
        let other = try #require(plain.nodes.filter(\.isComputation).first { $0.name != busiest.name })
        let otherWhy = TraceModelOptions(explaining: [other.name], whyEntryLimit: 20)
        let otherKept = try asked(otherWhy)
        #expect(otherKept.batches == 0)
        #expect(otherKept.0.why(other.name) == (try TraceFile.model(path: path, options: otherWhy).0.why(other.name)))
        let longer = TraceModelOptions(explaining: [busiest.name], whyEntryLimit: 21)
        let longerByPass = try TraceFile.model(path: path, options: longer).0.why(busiest.name)
        #expect(try asked(longer).batches > 0)
        let longerKept = try asked(longer)
        #expect(longerKept.batches == 0)
        #expect(longerKept.0.why(busiest.name) == longerByPass)
        let unknown = try asked(TraceModelOptions(explaining: ["no-such-node"]))
        #expect(unknown.batches == 0)
        #expect(unknown.0.why("no-such-node")?.isUnknown == true)
        for name in [busiest.name, "no-such-node"] {
            let history = try asked(TraceModelOptions(valueHistoryOf: name))
            #expect(history.batches == 0, "\(name)")
            #expect(!history.0.hasValues)
        }
    }

    @Test(arguments: traces)
    func everyAnswerIsTheSameWithAndWithoutTheIndex(sample: String) throws {
        let path = try Self.copy(of: sample, as: "same")
        let built = try Self.run(["index", path])
        #expect(built.status == 0, "\(built.stderr)")
        #expect(built.stdout.contains("chunks of"))
        let indexPath = TraceIndex.path(forTrace: path)
        let indexBytes = try #require(FileManager.default.contents(atPath: indexPath))
        let passes = PassAnswers.shared
        for moment in try Self.moments(of: path) {
            for command in Self.commands(path, at: moment) {
                let byPasses = try passes.run(command)
                let indexed = try Self.run(command)
                #expect(indexed.stdout == byPasses.stdout, "\(command)")
                #expect(indexed.stderr == byPasses.stderr, "\(command)")
                #expect(indexed.status == byPasses.status, "\(command)")
            }
        }
        // Every answer came from the index built above: none of them rebuilt it.
        #expect(FileManager.default.contents(atPath: indexPath) == indexBytes)
    }

    /// A copy of `sample`'s trace indexed by the binary with a snapshot after every chunk: its
    /// path, its index's path and the index's bytes (to check that no answer rebuilt it).
    static func indexedWithASnapshotAfterEveryChunk(_ sample: String, as label: String) throws
        -> (path: String, indexPath: String, indexBytes: Data) {
        let path = try copy(of: sample, as: label)
        let built = try BuiltProducts.run("reactor-inspect", ["index", path],
                                          environment: ["REACTOR_INDEX_SNAPSHOT_BYTES": "1"])
        #expect(built.status == 0, "\(built.stderr)")
        let indexPath = TraceIndex.path(forTrace: path)
        return (path, indexPath, try #require(FileManager.default.contents(atPath: indexPath)))
    }

    /// `replay` from an index with a snapshot after every chunk: every filter prints what the
    /// pass prints, byte for byte, and no answer rebuilt the index; `--last` read only the
    /// chunks after the snapshot before its lines (none of the trace's start for the last line).
    @Test(arguments: traces)
    func replayFromTheSnapshotsIsTheReplayByAPass(sample: String) throws {
        let (path, indexPath, indexBytes) = try Self.indexedWithASnapshotAfterEveryChunk(sample, as: "replay")
        let (model, _) = try TraceFile.model(path: path)
        try Self.expectSameAnswers(Self.replayCommands(path, model: model), passes: .shared)
        #expect(FileManager.default.contents(atPath: indexPath) == indexBytes)
        // In process: the lines of the last event and of each tenth of the trace, from the index and by a pass.
        let index = try #require(try TraceIndex.load(forTrace: path))
        func lines(_ filter: ReplayFilter, last: Int?, index use: TraceIndexUse) throws -> [UInt8] {
            var bytes: [UInt8] = []
            _ = try TraceReplay.lines(path: path, filter: filter, last: last, index: use) { bytes += $0 }
            return bytes
        }
        let session = TraceIndexSession(tracePath: path, note: { Issue.record("note: \($0)") })
        var last: [UInt8] = []
        let answered = try session.replay(filter: ReplayFilter(), style: .plain, json: false, last: 1) { last += $0 }
        #expect(answered != nil)
        #expect(last == (try lines(ReplayFilter(), last: 1, index: .none)))
        if index.batches.count > 2 { #expect(session.batchesRead < index.batches.count) }
        for tenth in 0..<10 {
            let from = model.firstTimestamp + model.durationNanoseconds / 10 * UInt64(tenth)
            let filter = ReplayFilter(from: from, to: from + model.durationNanoseconds / 10)
            #expect(try lines(filter, last: nil, index: .automatic(note: { Issue.record("note: \($0)") }))
                    == (try lines(filter, last: nil, index: .none)), "tenth \(tenth)")
        }
        #expect(FileManager.default.contents(atPath: indexPath) == indexBytes)
    }

    /// `replay --last` with a bad count: one line on stderr, status 2, nothing on stdout.
    @Test func replayLastRefusesABadCount() throws {
        let path = try Self.copy(of: "todos", as: "replay-last")
        for bad in ["0", "-3", "x", "1.5", ""] {
            let run = try Self.run(["replay", path, "--last=\(bad)"])
            #expect(run.status == 2, "\(bad)")
            #expect(run.stdout.isEmpty, "\(bad)")
            #expect(run.stderr.split(separator: "\n").count == 1, "\(bad): \(run.stderr)")
            #expect(run.stderr.contains("--last"), "\(bad): \(run.stderr)")
        }
        let all = try Self.run(["replay", path, "--no-index"]).stdout.split(separator: "\n")
        #expect(try Self.run(["replay", path, "--last", "3"]).stdout.split(separator: "\n") == Array(all.suffix(3)))
    }

    /// The first question about a moment leaves the index; --no-index neither reads nor writes one.
    @Test func theFirstQuestionLeavesTheIndexAndNoIndexLeavesNone() throws {
        let path = try Self.copy(of: "todos", as: "first")
        let indexPath = TraceIndex.path(forTrace: path)
        let plain = try Self.run(["state", path, "--at", "action:2", "--no-index"])
        #expect(plain.status == 0)
        #expect(!FileManager.default.fileExists(atPath: indexPath))
        let first = try Self.run(["state", path, "--at", "action:2"])
        #expect(first.stdout == plain.stdout)
        #expect(first.stderr.isEmpty)
        // With the model and the snapshots the next moment starts from.
        let left = try #require(try TraceIndex.load(forTrace: path))
        #expect(left.keepsModel)
        #expect(left.moments?.entries.isEmpty == false)
    }

    /// Moments answered from the index's snapshots (one after every chunk here): at the edges of
    /// every chunk (just before, at and just after its first and last event), after each of
    /// the first actions, past the last one, and at the end, `state` and `graph` say what they
    /// say by a pass, byte for byte; and none of those answers rebuilt the index.
    @Test(arguments: ["todos", "stress-threads", "threads-values"])
    func everyMomentFromTheSnapshotsIsTheMomentByAPass(sample: String) throws {
        let (path, indexPath, indexBytes) = try Self.indexedWithASnapshotAfterEveryChunk(sample, as: "snapshots")
        let index = try #require(try TraceIndex.load(forTrace: path))
        // Every chunk's edges, a bounded number of chunks spread over the trace.
        let step = max(1, index.batches.count / 40)
        var moments: [TraceMoment] = [.end] + (1...12).map(TraceMoment.afterAction) + [.afterAction(100_000)]
        for batch in stride(from: 0, to: index.batches.count, by: step).map({ index.batches[$0] }) {
            moments += [batch.firstTime - 1, batch.firstTime, batch.lastTime, batch.lastTime + 1].map(TraceMoment.time)
        }
        var notes: [String] = []
        for moment in moments {
            let indexed = Result { () throws(StateError) in
                try TraceFile.model(path: path, at: moment, index: .automatic(note: { notes.append($0) }))
            }
            let byPass = Result { () throws(StateError) in try TraceFile.model(path: path, at: moment) }
            #expect(Self.answers(indexed, path: path) == Self.answers(byPass, path: path), "\(moment) \(moment.nanoseconds)")
        }
        #expect(notes.isEmpty, "\(notes)")
        // The binary too, at a few of them.
        try Self.expectSameAnswers(moments.prefix(3).map { ["state", path, "--at", "\($0)", "--json"] }
                                   + moments.suffix(2).map { ["graph", path, "--at", "\($0)", "--format", "dot", "-o", "-"] }, passes: .shared)
        #expect(FileManager.default.contents(atPath: indexPath) == indexBytes)
    }

    /// What `state` (text and JSON) and `graph --at` (DOT) print for a moment, or its error.
    static func answers(_ built: Result<(TraceModel, ResolvedMoment, TraceReadReport), StateError>,
                        path: String) -> [String] {
        switch built {
        case let .success((model, moment, _)):
            let state = StateReport(model: model, moment: moment, filter: nil)
            let options = GraphOptions(selection: .all, at: moment.timestamp)
            let dot = (try? GraphRenderer.render(model: model, options: options, format: .dot, title: "t").output) ?? "-"
            return [state.text(style: .plain, tracePath: path), (try? JSONText.encode(state.entries)) ?? "-", dot,
                    "\(model.eventCount) \(model.latestTimestampRead) \(model.unfinishedRuns) \(model.pendingReruns.sorted())"]
        case let .failure(error):
            return [error.description]
        }
    }

    /// A budget with a rule on every figure `check` reads, most of them exceeded.
    static func budget(beside path: String) throws -> String {
        let budget = (path as NSString).deletingLastPathComponent + "/budget.json"
        let forbid = TraceIssueKind.allCases.map { "\"\($0.budgetName)\"" }.joined(separator: ", ")
        try Data("""
            { "computations": [ { "match": "*", "maxReruns": 2, "maxTotalMilliseconds": 0.001,
                                  "maxRerunMilliseconds": 0.001, "maxUnneededReruns": 0 } ],
              "actions": [ { "match": "*", "maxRerunsPerAction": 1 } ],
              "maxFlushMilliseconds": 0.001, "forbid": [\(forbid)] }
            """.utf8).write(to: URL(fileURLWithPath: budget))
        return budget
    }

    /// The questions a profile of the whole trace answers: `report` in each
    /// format, `check` in each form, and `diff` against `other` (a trace with an index of its own) both ways.
    static func profileCommands(_ path: String, other: String) throws -> [[String]] {
        let budget = try budget(beside: path)
        return [["report", path, "--format", "html", "-o", "-"], ["report", path, "--format", "md", "-o", "-"],
                ["report", path, "--format", "json", "-o", "-"], ["report", path, "--format", "md", "-o", "-", "--top", "1"],
                ["check", path, "--budget", budget], ["check", path, "--budget", budget, "--verbose"],
                ["check", path, "--budget", budget, "--json"], ["check", path, "--budget", budget, "--junit", "-"],
                ["diff", other, path], ["diff", path, other, "--json"], ["diff", path, path, "--markdown"]]
    }

    /// `report`, `check` and `diff` answer from the profile the index keeps as a
    /// pass does: the first question reads the trace and leaves the profile (and
    /// the plain model) in the index, the next ones read the index; a pass that
    /// finds an index with only the model adds the profile to it.
    @Test(arguments: traces)
    func profileAnswersAreTheSameFromTheKeptProfile(sample: String) throws {
        let path = try Self.copy(of: sample, as: "profile")
        let other = try Self.copy(of: "todos", as: "profile-other")
        let indexPath = TraceIndex.path(forTrace: path)
        let commands = try Self.profileCommands(path, other: other)
        let passes = PassAnswers.shared
        for command in commands {
            let byPasses = try passes.run(command)
            for _ in 0..<2 {
                let indexed = try Self.run(command)
                #expect(indexed.stdout == byPasses.stdout, "\(command)")
                #expect(indexed.stderr == byPasses.stderr, "\(command)")
                #expect(indexed.status == byPasses.status, "\(command)")
            }
        }
        let kept = try #require(try TraceIndex.load(forTrace: path))
        #expect(kept.keepsModel && kept.keepsProfile)
        #expect(try #require(try TraceIndex.load(forTrace: other)).keepsProfile)
        let bytes = try #require(FileManager.default.contents(atPath: indexPath))
        // Rebuilt by `index`: the profile kept, the same bytes.
        let rebuilt = try Self.run(["index", path])
        #expect(rebuilt.status == 0)
        #expect(rebuilt.stdout.contains("the profile kept"))
        #expect(FileManager.default.contents(atPath: indexPath) == bytes)
        // Built by `index` with no index there (the model, no profile), then completed by the first `report`: the same index.
        #expect(unlink(indexPath) == 0)
        #expect(try Self.run(["index", path]).status == 0)
        #expect(try #require(try TraceIndex.load(forTrace: path)).keepsProfile == false)
        try Self.expectSameAnswers([commands[0]], passes: passes)
        #expect(FileManager.default.contents(atPath: indexPath) == bytes)
        // The plain model's answers are the same from an index that also keeps the profile.
        try Self.expectSameAnswers(Self.wholeTraceCommands(path), passes: passes)
        #expect(FileManager.default.contents(atPath: indexPath) == bytes)
        // Another trace's index there (copied over this one's) is stale: nothing of it is kept,
        // unless that trace is this one's bytes (the todos sample against itself).
        #expect(unlink(indexPath) == 0)
        try FileManager.default.copyItem(atPath: TraceIndex.path(forTrace: other), toPath: indexPath)
        #expect(try Self.run(["index", path]).status == 0)
        #expect(try #require(try TraceIndex.load(forTrace: path)).keepsProfile == (sample == "todos"))
    }

    /// A kept profile with one figure changed and its CRC recomputed: not trusted
    /// (its tag does not verify), rebuilt with one note, the pass's answer.
    @Test func aHostileProfileSectionIsRebuiltWithOneNote() throws {
        let path = try Self.copy(of: "threads-values", as: "hostile-profile")
        let other = try Self.copy(of: "todos", as: "hostile-profile-other")
        let indexPath = TraceIndex.path(forTrace: path)
        let report = ["report", path, "--format", "md", "-o", "-"]
        #expect(try Self.run(report).status == 0)
        let kept = try #require(try TraceIndex.load(forTrace: path))
        var bytes = [UInt8](try #require(FileManager.default.contents(atPath: indexPath)))
        // The first computation's instance count follows its name and kind, the first
        // place in the file where both are strings (the model keeps kinds as numbers).
        let first = try #require(kept.profileFigures?.computations.first)
        let pattern = [UInt8(first.name.utf8.count)] + Array(first.name.utf8) + [UInt8(first.kind.utf8.count)]
            + Array(first.kind.utf8)
        let start = try #require((28..<(bytes.count - pattern.count)).first { Array(bytes[$0..<($0 + pattern.count)]) == pattern })
        let offset = start + pattern.count
        #expect(bytes[offset] == UInt8(first.instances))
        bytes[offset] ^= 2
        // The CRC covers the body, not the snapshots after it.
        let bodyEnd = 28 + Int(bytes[12..<16].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
        TraceBytes.setUInt32(&bytes, at: 16, CRC32.checksum(Array(bytes[28..<bodyEnd])))
        try Data(bytes).write(to: URL(fileURLWithPath: indexPath))
        let byPasses = try Self.run(report + ["--no-index"])
        let answered = try Self.run(report)
        #expect(answered.stdout == byPasses.stdout)
        #expect(answered.status == byPasses.status)
        let notes = answered.stderrLines.filter { $0.contains(".rindex") }
        #expect(notes.count == 1, "\(answered.stderr)")
        #expect(notes.first?.contains("its tag does not verify") == true)
        try Self.expectSameAnswers(try Self.profileCommands(path, other: other), passes: .shared)
        #expect(try #require(try TraceIndex.load(forTrace: path)).keepsProfile)
    }

    /// Index files that must not be used: each is reported in one note, the
    /// answer is the one by passes, and a good index replaces it.
    @Test(arguments: ["stale", "truncated", "foreign", "hostile", "hostile-model", "hostile-explanations",
                      "hostile-all-explanations", "hostile-moments", "hostile-snapshot", "hostile-positions", "empty",
                      "other-trace"])
    func aBadIndexIsRebuiltWithOneNote(kind: String) throws {
        let path = try Self.copy(of: "threads-values", as: kind)
        let indexPath = TraceIndex.path(forTrace: path)
        // A snapshot after every chunk: the moment asked about starts from one in the middle.
        #expect(try BuiltProducts.run("reactor-inspect", ["index", path],
                                      environment: ["REACTOR_INDEX_SNAPSHOT_BYTES": "1"]).status == 0)
        let (model, _) = try TraceFile.model(path: path)
        let explanationCommands = Self.explanationCommands(path, model: model)
        // A `why` listing more runs than every computation's explanations keep is kept on its own.
        let keptWhy = explanationCommands[5]
        #expect(keptWhy.last == "500")
        if kind == "hostile-explanations" { #expect(try Self.run(keptWhy).status == 0) }
        if kind == "hostile-all-explanations" { #expect(try Self.run(explanationCommands[0]).status == 0) }
        var bytes = try #require(FileManager.default.contents(atPath: indexPath))
        switch kind {
        case "stale":
            // The trace changes after the index was built: the index names the old one.
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data([0, 0, 0]))
            try handle.close()
        case "truncated": bytes = bytes.prefix(bytes.count / 2)
        case "foreign": bytes = Data("{\"not\": \"an index\"}".utf8)
        case "hostile":
            // Every chunk claims to start after the moment asked for, under a checksum that fits.
            bytes = try Self.forged(bytes, path: path)
        case "hostile-model":
            // One figure of the kept model changed and the CRC recomputed, as anyone can; the tag
            // only this user's reader can make.
            bytes = try Self.edited(bytes, path: path) { index in
                var model = try #require(index.model).model
                model.nodes[0].changes += 1
                index.model = IndexedModel(model)
            }
        case "hostile-explanations":
            // The last figure of the kept explanations changed, the CRC recomputed.
            bytes = try Self.edited(bytes, path: path) { index in
                var kept = try #require(index.explanations).bytes
                kept[kept.count - 1] ^= 1
                index.explanations = try KeptExplanations(decoding: kept)
            }
        case "hostile-all-explanations":
            // The last figure of every computation's explanations changed, the CRC recomputed.
            bytes = try Self.edited(bytes, path: path) { index in
                var all = try #require(index.allExplanations).bytes
                all[all.count - 1] ^= 1
                index.allExplanations = AllExplanations(bytes: all)
            }
        case "hostile-moments":
            // One snapshot said to serve moments earlier than it does, the CRC recomputed.
            bytes = try Self.edited(bytes, path: path) { index in
                var moments = try #require(index.moments)
                moments.entries[moments.entries.count / 2].latestBefore -= 1
                index.moments = moments
            }
        case "hostile-positions":
            // One byte of the per-node positions changed, the CRC recomputed.
            bytes = try Self.edited(bytes, path: path) { index in
                var section = try #require(index.positions).bytes
                section[section.count / 2] ^= 1
                index.positions = IndexedPositions(bytes: section)
            }
        case "hostile-snapshot":
            // One byte of a snapshot changed (no CRC covers them; each has its tag).
            let index = try #require(try TraceIndex.load(forTrace: path))
            let moments = try #require(index.moments)
            let entry = try #require(moments.latest(until: Self.momentTime(model), untilAction: nil))
            let position = Int(try #require(moments.tailStart) + entry.offset) + entry.length / 2
            bytes[position] ^= 0x01
        case "empty": bytes = Data()
        default:
            let other = try Self.copy(of: "stress", as: "other")
            #expect(try Self.run(["index", other]).status == 0)
            bytes = try #require(FileManager.default.contents(atPath: TraceIndex.path(forTrace: other)))
        }
        if kind != "stale" { try bytes.write(to: URL(fileURLWithPath: indexPath)) }
        // The stale trace's moments are its own (its model read again).
        let moment = kind == "stale" ? try Self.moments(of: path)[2] : Self.moments(of: model)[2]
        // The explanations' case asks a `why`; the others a moment.
        let question = kind == "hostile-explanations" ? keptWhy
            : kind == "hostile-all-explanations" ? explanationCommands[0] : ["state", path, "--at", moment]
        let passes = PassAnswers.shared
        let byPasses = try passes.run(question)
        let answered = try Self.run(question)
        #expect(answered.stdout == byPasses.stdout)
        #expect(answered.status == byPasses.status)
        let notes = answered.stderrLines.filter { $0.contains(".rindex") }
        #expect(notes.count == 1, "\(answered.stderr)")
        #expect(notes.first?.hasPrefix("reactor-inspect: note: ") == true)
        if ["hostile-model", "hostile-explanations", "hostile-all-explanations", "hostile-moments",
            "hostile-positions"].contains(kind) {
            #expect(notes.first?.contains("its tag does not verify") == true)
        }
        if kind == "hostile-snapshot" { #expect(notes.first?.contains("a snapshot that fails its tag") == true) }
        if kind.hasPrefix("hostile") {
            // The questions the kept model and explanations answer, too: the pass's answers, from the rebuilt index.
            try Self.expectSameAnswers(Self.wholeTraceCommands(path) + explanationCommands, passes: passes)
        }
        if kind == "hostile-explanations" { #expect(try TraceIndex.load(forTrace: path)?.explainedTargets.isEmpty == false) }
        if kind == "hostile-all-explanations" { #expect(try TraceIndex.load(forTrace: path)?.explainsEveryComputation == true) }
        // Rebuilt: the next question uses it without a note.
        let again = try Self.run(question)
        #expect(again.stdout == byPasses.stdout)
        #expect(!again.stderr.contains(".rindex"), "\(again.stderr)")
    }

    /// An index whose table is rewritten so that every chunk seems later than
    /// any moment, its checksum recomputed: structurally valid, and a lie.
    static func forged(_ bytes: Data, path: String) throws -> Data {
        let index = try TraceIndex.load(forTrace: path)
        var forged = try #require(index)
        forged.batches = forged.batches.map { batch in
            var batch = batch
            batch.firstTime = forged.latestTimestamp
            batch.lastTime = forged.latestTimestamp
            return batch
        }
        return Data(forged.encoded())
    }

    /// The index `edit` changed, with a CRC that fits and the tag it had: a lie with a valid
    /// checksum, as anyone can write it. The snapshots after the body stay as they were.
    static func edited(_ bytes: Data, path: String, _ edit: (inout TraceIndex) throws -> Void) throws -> Data {
        var index = try #require(try TraceIndex.load(forTrace: path))
        let original = [UInt8](bytes)
        let bodyEnd = 28 + Int(original[12..<16].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
        try edit(&index)
        var forged = index.encoded()
        forged.replaceSubrange(20..<28, with: original[20..<28])
        return Data(forged + original[bodyEnd...])
    }

    /// The time the bad-index cases ask about (the third of ``moments(of:)``).
    static func momentTime(_ model: TraceModel) -> UInt64 {
        model.firstTimestamp + model.durationNanoseconds / 10 * 5
    }

    /// An index that cannot be written (its path is a folder): the answer is
    /// the one by passes, with one note, every time.
    @Test func anIndexThatCannotBeWrittenLeavesAnswersByPasses() throws {
        let path = try Self.copy(of: "todos", as: "unwritable")
        try FileManager.default.createDirectory(atPath: TraceIndex.path(forTrace: path),
                                                withIntermediateDirectories: false)
        let byPasses = try Self.run(["state", path, "--at", "action:3", "--no-index"])
        for _ in 0..<2 {
            let answered = try Self.run(["state", path, "--at", "action:3"])
            #expect(answered.stdout == byPasses.stdout)
            #expect(answered.status == 0)
            #expect(answered.stderrLines.count == 1, "\(answered.stderr)")
            #expect(answered.stderr.hasPrefix("reactor-inspect: note: "))
        }
    }

    /// `index` on what cannot be indexed: one line, status 2.
    @Test func indexOfABadTraceIsOneLine() throws {
        let missing = SampleTrace.directory.appendingPathComponent("no-such-\(UUID().uuidString).trace").path
        let result = try Self.run(["index", missing])
        #expect(result.status == 2)
        #expect(result.stderrLines.count == 1)
        #expect(!FileManager.default.fileExists(atPath: TraceIndex.path(forTrace: missing)))
    }
}

extension TraceMoment {
    /// The moment's time, for a failure's message (the description rounds it).
    var nanoseconds: String {
        if case let .time(time) = self { return "\(time) ns" }
        return ""
    }
}
