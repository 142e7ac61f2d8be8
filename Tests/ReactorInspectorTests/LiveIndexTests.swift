import Foundation
import ReactorInspector
import ReactorTrace
import ReactorTraceFormat
import Testing

/// The index `LiveTrace` keeps of what it read (serve's live index): a
/// question about a moment given it, under a `TracePass` of the bytes read,
/// reads only the chunks the moment needs and answers as a pass over exactly
/// those bytes does, while the trace grows.
@Suite struct LiveIndexTests {
    /// The todo script on two threads with a value for each change, recorded by the real recorder in small chunks.
    static func recordedBytes(todos: Int) throws -> [UInt8] {
        var script = TraceScript()
        script.setUp()
        for index in 0..<todos {
            script.addTodo("item \(index)", thread: UInt32(index % 2))
            script.add(.value(node: TraceScript.todos, value: "\(index + 1) todos"), thread: UInt32(index % 2))
        }
        let path = NSTemporaryDirectory() + "live-index-source-\(UUID().uuidString).rtrace"
        defer { unlink(path) }
        try script.record(to: path, options: .init(segmentCapacity: 256))
        return try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// What `state --at` and `summary` show of a model at a moment: compared as JSON.
    static func answer(_ model: TraceModel, _ moment: ResolvedMoment) throws -> String {
        let state = StateReport(model: model, moment: moment)
        let summary = try JSONText.encode(SummaryReport(model: model, top: 100))
        return "\(moment.timestamp) \(state.actionName ?? "-") \(try JSONText.encode(state.entries)) \(summary)"
    }

    /// Without snapshots (this small trace stays under the budget's 1 MiB) and with one after every chunk.
    @Test(arguments: [nil, 1] as [UInt64?])
    func momentsFromTheLiveIndexAreThoseOfAPassOverTheBytesRead(snapshotInterval: UInt64?) throws {
        let bytes = try Self.recordedBytes(todos: 40)
        let starts = LiveTraceTests.blockStarts(bytes)
        #expect(starts.count > 12, "small segments: many chunks")
        let path = NSTemporaryDirectory() + "live-index-\(UUID().uuidString).rtrace"
        let copy = path + ".prefix"
        defer { unlink(path); unlink(copy) }
        let live = LiveTrace(path: path, snapshotInterval: snapshotInterval)
        var written = 0
        // The trace grows: a third of its chunks, two thirds, all of it (with its end block).
        for end in [starts[starts.count / 3], starts[2 * starts.count / 3], bytes.count] {
            if written == 0 {
                #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes[0..<end])))
            } else {
                let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
                try handle.seekToEnd()
                try handle.write(contentsOf: Data(bytes[written..<end]))
                try handle.close()
            }
            written = end
            try live.catchUp()
            #expect(live.bytesRead == end)
            let index = try #require(live.index())
            #expect(index.events == live.eventsRead)
            #expect(index.stillRecording == (end < bytes.count))
            // The reference: a pass over a file of exactly the bytes read, without any index.
            #expect(FileManager.default.createFile(atPath: copy, contents: Data(bytes[0..<end])))
            let model = live.model()
            let first = model.firstTimestamp, last = model.latestTimestampRead
            var moments: [TraceMoment] = [.end]
            for step in 0...8 { moments.append(.time(first + (last - first) * UInt64(step) / 8)) }
            for action in stride(from: 1, through: live.actionsBegun, by: 3) { moments.append(.afterAction(action)) }
            var readLess = 0
            // A moment at or after the latest snapshot's chunks reads only the chunks after it.
            let lastMoment = TraceMoment.time(last)
            moments.append(lastMoment)
            for moment in moments {
                // An action begun but not yet ended in the bytes read is refused by both, with the same words.
                let expected: String, given: String
                do {
                    let (model, resolved, _) = try TraceFile.model(path: copy, at: moment)
                    expected = try Self.answer(model, resolved)
                } catch {
                    expected = "refused: \(error)"
                }
                let pass = TracePass(byteLimit: live.bytesRead)
                do {
                    let (model, resolved, _) = try pass.run {
                        try TraceFile.model(path: path, at: moment, index: .given(index))
                    }
                    given = try Self.answer(model, resolved)
                } catch {
                    given = "refused: \(error)"
                }
                #expect(given == expected, "\(moment)")
                #expect(pass.eventsRead <= live.eventsRead, "never past the bytes read (\(moment))")
                if pass.eventsRead < live.eventsRead { readLess += 1 }
                if moment == lastMoment {
                    if snapshotInterval == nil {
                        #expect(pass.eventsRead == live.eventsRead, "no snapshot: read from the start")
                    } else {
                        #expect(pass.eventsRead < live.eventsRead / 4, "resumed from the follower's last snapshot")
                    }
                }
            }
            // The end, from the follower's own model: the pass's answer, with nothing read.
            let (atEnd, atEndMoment) = TraceFile.modelAtEnd(model)
            let (expected, expectedMoment, _) = try TraceFile.model(path: copy, at: .end)
            #expect(try Self.answer(atEnd, atEndMoment) == (try Self.answer(expected, expectedMoment)))
            // The early moments stop at their chunk.
            #expect(readLess >= 3, "the index let early moments stop (\(readLess) of \(moments.count))")
        }
        // Read to its end, the live index is the one a pass leaves beside the finished trace.
        let (built, _) = try TraceIndex.build(forTrace: copy)
        let index = try #require(live.index())
        #expect(index.batches == built.batches)
        #expect(index.events == built.events && index.threadCount == built.threadCount)
        #expect(index.latestTimestamp == built.latestTimestamp && index.hasValues == built.hasValues)
        unlink(TraceIndex.path(forTrace: copy))
    }

    @Test func aReplacedTraceStartsTheIndexOver() throws {
        let first = try Self.recordedBytes(todos: 30)
        let second = try Self.recordedBytes(todos: 5)
        let path = NSTemporaryDirectory() + "live-index-replaced-\(UUID().uuidString).rtrace"
        defer { unlink(path) }
        #expect(FileManager.default.createFile(atPath: path, contents: Data(first)))
        let live = LiveTrace(path: path)
        try live.catchUp()
        let before = try #require(live.index())
        let other = path + ".new"
        #expect(FileManager.default.createFile(atPath: other, contents: Data(second)))
        #expect(rename(other, path) == 0)
        LiveTraceFileChangeTests.settle()
        try live.catchUp()
        #expect(live.generation == 1)
        let after = try #require(live.index())
        #expect(after.events == live.eventsRead && after.events < before.events)
        #expect((after.batches.last?.endOffset ?? .max) < UInt64(second.count), "the new file's chunks only")
        #expect(after.batches.count < before.batches.count)
    }

    @Test func aCancelledPassStopsAtItsNextBatch() throws {
        let bytes = try Self.recordedBytes(todos: 400)
        let path = NSTemporaryDirectory() + "live-index-cancel-\(UUID().uuidString).rtrace"
        defer { unlink(path) }
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        let total = try TraceFile.forEachBatch(path: path) { _ in }.events
        let pass = TracePass()
        var batchesAfterCancel = 0
        let outcome = Result { () throws(TraceFileError) in
            try pass.run { () throws(TraceFileError) in
                try TraceFile.forEachBatch(path: path) { _ in
                    if pass.isCancelled { batchesAfterCancel += 1 }
                    pass.cancel()
                }
            }
        }
        guard case let .failure(error) = outcome else { Issue.record("the pass read on to the end"); return }
        #expect(error.description.contains("cancelled"))
        #expect(batchesAfterCancel == 0, "no batch read after the cancel")
        #expect(pass.isCancelled && pass.eventsRead > 0 && pass.eventsRead < total)
        // A cancelled pass's every later read stops before it begins.
        #expect(throws: TraceFileError.self) { try pass.run { () throws(TraceFileError) in try TraceFile.model(path: path) } }
    }
}
