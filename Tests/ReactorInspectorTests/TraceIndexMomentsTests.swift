import Foundation
@testable import ReactorInspector
import ReactorTrace
import ReactorTraceFormat
import Testing

/// The index's snapshots (``IndexedMoments``): a moment answered from the
/// latest snapshot its time or action allows, and the chunks after it, is the
/// moment a whole pass builds, byte for byte, wherever the moment falls.
@Suite struct TraceIndexMomentsTests {
    /// A trace of many small chunks (256-byte buffers) with values: todos added by actions,
    /// every third inside an outer action (nested), and a last action and run the trace does not end.
    static func nestedTrace(_ name: String, count: Int = 60) throws -> String {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("moments-\(name)-\(getpid())-\(UUID().uuidString).trace").path
        var script = TraceScript()
        script.setUp()
        for index in 0..<count {
            let nested = index % 3 == 0
            if nested { script.add(.actionBegan(store: TraceScript.store, name: "batch()", arguments: "\(index)")) }
            script.add(.value(node: TraceScript.todos, value: "\(index) todos"), advance: 5)
            script.addTodo("item \(index)")
            script.add(.value(node: TraceScript.visibleValue, value: String(repeating: "v", count: index % 70)))
            if nested { script.add(.actionEnded(store: TraceScript.store), advance: 20) }
        }
        script.add(.actionBegan(store: TraceScript.store, name: "unfinished()", arguments: ""), advance: 100)
        script.add(.rerunBegan(computation: TraceScript.list, firstRun: false), advance: 10)
        script.add(.depend(computation: TraceScript.list, dependency: TraceScript.visibleValue))
        var options = TraceRecorder.Options(segmentCapacity: 256)
        options.values = .described(maxLength: 64)
        try script.record(to: path, options: options)
        return path
    }

    /// Everything a model at a moment holds that an answer can show: every figure the index's
    /// encoding keeps (values included), and the graph at the moment.
    static func everything(_ built: (TraceModel, ResolvedMoment, TraceReadReport), path: String) -> [String] {
        let (model, moment, report) = built
        var fields = IndexFieldWriter()
        model.encode(to: &fields)
        let snapshot = model.snapshot.map { "\($0.timestamp) \($0.liveNodes.sorted()) \($0.edges.sorted())" } ?? "-"
        let state = StateReport(model: model, moment: moment, filter: nil)
        return ["\(fields.bytes)", snapshot, "\(moment)", "\(report)", state.text(style: .plain, tracePath: path),
                (try? JSONText.encode(state.entries)) ?? "-"]
    }

    /// Every chunk's edges (just before, at and just after its first and last event), every
    /// action, and the end: the same model from the snapshots as by a whole pass, and most start
    /// from a snapshot after the trace's start.
    @Test func everyMomentFromTheSnapshotsIsTheWholePass() throws {
        let path = try Self.nestedTrace("every")
        let (index, _) = try TraceIndex.build(forTrace: path, progress: nil, snapshotInterval: 1)
        let moments = try #require(index.moments)
        #expect(index.batches.count > 20)
        #expect(moments.entries.count == index.batches.count)
        var times: Set<UInt64> = []
        for batch in index.batches {
            for time in [batch.firstTime - 1, batch.firstTime, batch.lastTime, batch.lastTime + 1] { times.insert(time) }
        }
        var asked = times.sorted().map(TraceMoment.time) + (1...70).map(TraceMoment.afterAction)
        asked.append(.end)
        var resumed = 0
        for moment in asked {
            let session = TraceIndexSession(tracePath: path, note: { Issue.record("note: \($0)") })
            var usedSnapshot = false
            let indexed = Result { () throws(StateError) in
                try TraceFile.model(at: moment, options: TraceModelOptions(tracksValues: true)) { builder throws(StateError) in
                    do throws(TraceFileError) {
                        let built = try session.model(builder: builder, progress: nil)
                        usedSnapshot = usedSnapshot || session.resumedFrom != nil
                        return built
                    } catch {
                        throw .file(error)
                    }
                }
            }
            let whole = Result { () throws(StateError) in try TraceFile.model(path: path, at: moment) }
            switch (indexed, whole) {
            case let (.success(fromIndex), .success(byPass)):
                #expect(Self.everything(fromIndex, path: path) == Self.everything(byPass, path: path), "\(moment)")
            case let (.failure(fromIndex), .failure(byPass)):
                #expect(fromIndex.description == byPass.description, "\(moment)")
            default:
                Issue.record("\(moment): \(indexed) but by a pass \(whole)")
            }
            if usedSnapshot { resumed += 1 }
        }
        #expect(resumed * 10 > asked.count * 9, "\(resumed) of \(asked.count) moments started from a snapshot")
        // No answer rebuilt or replaced the index.
        #expect(try TraceIndex.load(forTrace: path) == index)
    }

    /// The plain model an index keeps is the one a pass without values builds, though its pass tracks them.
    @Test func theKeptModelHasNoValues() throws {
        let path = try Self.nestedTrace("plain", count: 12)
        let (index, _) = try TraceIndex.build(forTrace: path, progress: nil, snapshotInterval: nil)
        let kept = try #require(index.model)
        #expect(kept == IndexedModel(try TraceFile.model(path: path).0))
        #expect(index.moments?.entries.last?.batch == index.batches.count)
    }

    /// A snapshot whose bytes were changed is refused by its tag: the moment is read by a whole
    /// pass, with one note, and the index rebuilt.
    @Test func aChangedSnapshotIsRefused() throws {
        let path = try Self.nestedTrace("changed", count: 30)
        let (index, _) = try TraceIndex.build(forTrace: path, progress: nil, snapshotInterval: 1)
        let moments = try #require(index.moments)
        let entry = moments.entries[moments.entries.count / 2]
        let indexPath = TraceIndex.path(forTrace: path)
        var bytes = try #require(FileManager.default.contents(atPath: indexPath))
        let start = Int(try #require(moments.tailStart) + entry.offset)
        bytes[start + entry.length / 2] ^= 0x01
        try bytes.write(to: URL(fileURLWithPath: indexPath))
        var notes: [String] = []
        let moment = TraceMoment.time(index.batches[entry.batch].firstTime)
        let answered = try TraceFile.model(path: path, at: moment, index: .automatic(note: { notes.append($0) }))
        let whole = try TraceFile.model(path: path, at: moment)
        #expect(Self.everything(answered, path: path) == Self.everything(whole, path: path))
        #expect(notes.count == 1)
        #expect(notes.first?.contains("a snapshot that fails its tag") == true, "\(notes)")
    }

    /// A reader resumed from a point reads on as the reader it was taken from; the point's
    /// bytes read back as written, and no cut or change of them traps.
    @Test func aResumedReaderReadsOnAsTheOriginal() throws {
        let path = try Self.nestedTrace("resume", count: 20)
        let reader = try TraceReader(path: path)
        var points: [(TraceResumePoint, [TraceEvent])] = []
        var batches: [[PlainTraceEvent]] = []
        while try reader.nextBatch({ batches.append(Array($0.events)) }) {
            if let point = reader.resumePoint() { points.append((point, [])) }
        }
        #expect(points.count > 10)
        for (position, (point, _)) in points.enumerated() {
            #expect(TraceResumePoint(encoded: point.encoded()) == point)
            let resumed = try TraceReader(path: path, resumingAt: point)
            var rest: [[PlainTraceEvent]] = []
            while try resumed.nextBatch({ rest.append(Array($0.events)) }) {}
            #expect(rest.map { $0.map(\.timestamp) } == batches[(position + 1)...].map { $0.map(\.timestamp) })
            #expect(resumed.truncation == reader.truncation)
            #expect(resumed.end == reader.end)
        }
        let bytes = points[points.count / 2].0.encoded()
        for length in 0..<bytes.count { #expect(TraceResumePoint(encoded: Array(bytes[0..<length])) == nil) }
        for position in bytes.indices {
            var changed = bytes
            changed[position] ^= 0x5A
            _ = TraceResumePoint(encoded: changed)
        }
    }

    /// Any bytes given as a checkpoint restore a builder or throw: never a trap.
    @Test func aDamagedCheckpointIsAnError() throws {
        let path = try Self.nestedTrace("checkpoint", count: 6)
        let builder = TraceModelBuilder(options: TraceModelBuilder.checkpointOptions, numbersActions: true)
        _ = try TraceFile.model(path: path, builder: builder, progress: nil)
        var fields = IndexFieldWriter()
        builder.encodeCheckpoint(to: &fields)
        let bytes = fields.bytes
        for length in stride(from: 0, to: bytes.count, by: 7) {
            var cut = IndexFieldReader(Array(bytes[0..<length]))
            let restored = TraceModelBuilder(options: TraceModelOptions(tracksValues: true))
            #expect(throws: TraceIndexError.self) { try restored.restore(from: &cut) }
            #expect(restored.consumedEvents == 0)
        }
        for position in bytes.indices {
            var changed = bytes
            changed[position] ^= 0x5A
            var reader = IndexFieldReader(changed)
            _ = try? TraceModelBuilder(options: TraceModelOptions(until: 5_000, tracksValues: true)).restore(from: &reader)
        }
        var whole = IndexFieldReader(bytes)
        let restored = TraceModelBuilder(options: TraceModelOptions(tracksValues: true))
        try restored.restore(from: &whole)
        var again = IndexFieldWriter()
        let copy = TraceModelBuilder(options: TraceModelBuilder.checkpointOptions, numbersActions: true)
        var reread = IndexFieldReader(bytes)
        try copy.restore(from: &reread)
        copy.encodeCheckpoint(to: &again)
        #expect(again.bytes == bytes)
    }
}
