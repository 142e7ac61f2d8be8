import TraceForgery
import BuiltProducts
import Foundation
import ReactorCore
import Testing
@testable import ReactorTrace

/// `nextBatch` (plain events lent in place) against `next()` (one `TraceEvent`
/// at a time): the same events, the same end, the same counters, on intact,
/// cut and mutated traces.
@Suite struct BatchReadingTests {
    /// What reading a trace to its end came to, by either path.
    struct Outcome: Equatable {
        var events: [TraceEvent] = []
        var truncation: TraceTruncation?
        var end: TraceEnd?
        var eventsRead = 0
        var chunksRead = 0
        var skippedEvents = 0
        var threadCount = 0
        /// The error the reader's initializer threw, if it did.
        var rejected: TraceDecodingError?
    }

    /// Reads `bytes` with `next()`.
    static func readEvents(_ bytes: [UInt8]) -> Outcome {
        var outcome = Outcome()
        do {
            let reader = try TraceReader(bytes: bytes)
            while let event = try reader.next() { outcome.events.append(event) }
            outcome.finish(reader)
        } catch {
            outcome.rejected = error
        }
        return outcome
    }

    /// Reads `bytes` with `nextBatch`, resolving each plain event's strings,
    /// and checks what every batch promises.
    static func readBatches(_ bytes: [UInt8]) -> Outcome {
        var outcome = Outcome()
        do {
            let reader = try TraceReader(bytes: bytes)
            try reader.forEachBatch { batch in
                #expect(batch.count > 0, "batches are never empty")
                for position in 0..<batch.count {
                    let plain = batch.events[position]
                    #expect(plain.thread == batch.thread)
                    outcome.events.append(batch.event(at: position))
                }
            }
            #expect(try reader.nextBatch { _ in Issue.record("a batch after the end") } == false)
            outcome.finish(reader)
        } catch {
            outcome.rejected = error
        }
        return outcome
    }

    static func expectSameReading(_ bytes: [UInt8], _ comment: Comment? = nil) {
        let events = readEvents(bytes)
        let batches = readBatches(bytes)
        #expect(batches == events, comment)
    }

    @Test func plainEventsAreSmallPlainData() {
        #expect(MemoryLayout<PlainTraceEvent>.stride == 40)
        #expect(_isPOD(PlainTraceEvent.self))
        #expect(!_isPOD(TraceEvent.self))
    }

    @Test func everyRecordRoundTripsThroughItsPlainForm() {
        let records: [TraceRecord] = [
            .nodeCreated(id: 1, kind: .store, name: "TodoStore", parent: 0),
            .nodeNamed(id: 2, name: "TodoStore.todos", owner: 1),
            .nodeStopped(id: 3), .depend(computation: 4, dependency: 2), .changed(dependency: 2),
            .invalidated(computation: 4, cause: .dependency, source: 2),
            .rerunBegan(computation: 4, firstRun: true), .rerunEnded(computation: 4),
            .actionBegan(store: 1, name: "addTodo(_:)", arguments: "\"walk\""), .actionEnded(store: 1),
            .flushBegan, .flushEnded, .issue(kind: .runaway, node: 4, message: "too many reruns"),
            .value(node: 2, value: "[\"walk\"]"),
            .site(node: 7, site: "Todos/TodoStore.swift:12", isActionCall: true),
        ]
        #expect(Set(records.map(\.kind)) == Set(TraceEventKind.allCases))
        var strings = ["already there"]
        for record in records {
            let plain = PlainTraceRecord(record, strings: &strings)
            #expect(plain.kind == record.kind)
            #expect(plain.resolved(in: strings) == record)
        }
        #expect(strings == ["already there", "TodoStore", "TodoStore.todos", "addTodo(_:)", "\"walk\"", "too many reruns",
                           "[\"walk\"]", "Todos/TodoStore.swift:12"])
    }

    @Test func everyKindReadsTheSameBothWays() throws {
        let bytes = try TraceFixtures.record { recorder in
            for record in TraceFixtures.everyKind { record.send(to: recorder) }
        }
        let outcome = Self.readBatches(bytes)
        #expect(outcome.events.map(\.record) == TraceFixtures.everyKind)
        #expect(outcome.truncation == nil)
        #expect(outcome.end != nil)
        Self.expectSameReading(bytes)
    }

    @Test func stringsResolveThroughTheThreadsTable() throws {
        let bytes = try TraceFixtures.record { recorder in
            recorder.nodeCreated(1, kind: .store, name: "TodoStore", parent: 0)
            recorder.actionBegan(store: 1, name: "add(_:)", arguments: "\"milk\"")
            recorder.actionEnded(store: 1)
            recorder.actionBegan(store: 1, name: "add(_:)", arguments: "\"eggs\"")
            recorder.actionEnded(store: 1)
        }
        let reader = try TraceReader(bytes: bytes)
        var names: [String] = []
        var ids: [TraceStringID] = []
        try reader.forEachBatch { batch in
            for event in batch.events {
                switch event.record {
                case let .nodeCreated(_, _, name, _): names.append(batch.string(name)); ids.append(name)
                case let .actionBegan(_, name, arguments):
                    names.append("\(batch.string(name)) \(batch.string(arguments))")
                    ids.append(name)
                default: break
                }
                #expect(event.record.kind == event.resolved(in: batch.strings).record.kind)
            }
        }
        #expect(names == ["TodoStore", "add(_:) \"milk\"", "add(_:) \"eggs\""])
        // An interned string is one entry of the table, named by the same id.
        #expect(ids[1] == ids[2])
        #expect(ids[0] != ids[1])
    }

    @Test func samplesTracesReadTheSameBothWays() throws {
        for (sample, arguments) in [("stress", ["--computations", "60", "--writes", "400"]), ("todos", []), ("counter", [])] {
            let path = TraceFixtures.temporaryPath("batch-\(sample)")
            defer { unlink(path) }
            let status = try BuiltProducts.run(sample, arguments + ["--trace", path]).status
            #expect(status == 0)
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            let outcome = Self.readBatches(bytes)
            #expect(outcome.truncation == nil, "\(sample)")
            #expect(outcome.events.count > 100, "\(sample)")
            Self.expectSameReading(bytes, "\(sample)")
            // From the file as well as from memory (the input buffer is reused in place).
            let fromFile = try TraceReader(path: path)
            var count = 0
            try fromFile.forEachBatch { count += $0.count }
            #expect(count == outcome.events.count)
            #expect(fromFile.eventsRead == count)
        }
    }

    /// A trace of more than a megabyte: chunks straddle the input's 256 KB reads
    /// and its buffer is compacted, while batches are decoded in place in it.
    @Test func aLargeFileReadsInPlaceAsFromMemory() throws {
        let path = TraceFixtures.temporaryPath("batch-large")
        defer { unlink(path) }
        let status = try BuiltProducts.run("stress", ["--computations", "200", "--writes", "1000", "--trace", path]).status
        #expect(status == 0)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(bytes.count > 1 << 20)
        let fromMemory = Self.readEvents(bytes)
        let reader = try TraceReader(path: path)
        var fromFile: [TraceEvent] = []
        try reader.forEachBatch { batch in
            for position in 0..<batch.count { fromFile.append(batch.event(at: position)) }
        }
        #expect(reader.truncation == nil)
        #expect(reader.chunksRead == fromMemory.chunksRead)
        #expect(fromFile == fromMemory.events)
    }

    @Test func severalThreadsReadTheSameBothWays() throws {
        let bytes = try TraceFixtures.record(options: .init(segmentCapacity: 256)) { recorder in
            DispatchQueue.concurrentPerform(iterations: 3) { thread in
                for round in 0..<50 {
                    recorder.nodeCreated(UInt64(thread * 1_000 + round + 1), kind: .computation,
                                         name: "thread \(thread) node \(round % 7)", parent: 0)
                    recorder.rerunBegan(computation: UInt64(thread * 1_000 + round + 1), firstRun: true)
                    recorder.rerunEnded(computation: UInt64(thread * 1_000 + round + 1))
                }
            }
        }
        let outcome = Self.readBatches(bytes)
        #expect(outcome.events.count == 3 * 50 * 3)
        #expect(outcome.threadCount >= 1)
        Self.expectSameReading(bytes)
    }

    @Test func everyCutReadsTheSameBothWays() {
        let full = DamagedTraceTests.smallTrace.bytes
        for length in TraceFormat.headerLength..<full.count {
            let prefix = Array(full[0..<length])
            let batches = Self.readBatches(prefix)
            #expect(batches.truncation != nil, "cut at \(length)")
            #expect(batches == Self.readEvents(prefix), "cut at \(length)")
        }
    }

    @Test func mutatedTracesReadTheSameBothWays() {
        let seeds = [DamagedTraceTests.smallTrace.bytes]
        var random = SystemRandomNumberGenerator()
        var outcomes = [0, 0, 0]   // rejected, read with a truncation, read intact
        for round in 0..<2_000 {
            var bytes = seeds[round % seeds.count]
            for _ in 0..<Int.random(in: 1...4, using: &random) { DamagedTraceTests.mutate(&bytes, using: &random) }
            if round % 2 == 0 { TraceBytes.reseal(&bytes) }   // get past the checksums, into the decoder
            let events = Self.readEvents(bytes)
            let batches = Self.readBatches(bytes)
            #expect(batches == events, "round \(round)")
            outcomes[events.rejected != nil ? 0 : events.truncation == nil ? 2 : 1] += 1
        }
        #expect(outcomes[0] > 0 && outcomes[1] > 0)
    }

    @Test func aDamagedChunkYieldsNoneOfItsEvents() throws {
        var bytes = DamagedTraceTests.smallTrace.bytes
        let offsets = TraceBytes.chunkOffsets(bytes)
        let second = offsets[1]
        // Cut the second chunk's last event short, then fix the checksum: only the decoder can tell.
        let length = Int(TraceBytes.uint32(bytes, at: second + 4))
        bytes.remove(at: second + TraceFormat.blockHeaderLength + length - 1)
        TraceBytes.setUInt32(&bytes, at: second + 4, UInt32(length - 1))
        TraceBytes.reseal(&bytes)
        let first = try TraceReader(bytes: DamagedTraceTests.smallTrace.bytes)
        var firstChunk = 0
        _ = try first.nextBatch { firstChunk = $0.count }
        let outcome = Self.readBatches(bytes)
        #expect(outcome.truncation == TraceTruncation(offset: second, reason: .corruptChunk(offset: second)))
        #expect(outcome.events == Array(DamagedTraceTests.smallTrace.events.prefix(firstChunk)))
        #expect(outcome.chunksRead == 1)
        Self.expectSameReading(bytes)
        // Strict mode throws the same error from nextBatch.
        let strict = try TraceReader(bytes: bytes, mode: .strict)
        #expect(throws: TraceDecodingError.corruptChunk(offset: second)) { try strict.forEachBatch { _ in } }
    }

    @Test func readmeExampleCountsWhatNextCounts() throws {
        let bytes = DamagedTraceTests.smallTrace.bytes
        let reader = try TraceReader(bytes: bytes)
        var reruns = 0
        var names: [String] = []
        try reader.forEachBatch { batch in
            for event in batch.events {
                switch event.record {
                case .rerunBegan(_, firstRun: false): reruns += 1
                case let .nodeCreated(_, _, name, _): names.append(batch.string(name))
                default: break
                }
            }
        }
        var expectedReruns = 0
        var expectedNames: [String] = []
        for event in DamagedTraceTests.smallTrace.events {
            switch event.record {
            case .rerunBegan(_, firstRun: false): expectedReruns += 1
            case let .nodeCreated(_, _, name, _): expectedNames.append(name)
            default: break
            }
        }
        #expect(reruns == expectedReruns && reruns > 0)
        #expect(names == expectedNames && !names.isEmpty)
    }

    @Test func readingOnInsideABatchTraps() async {
        // The batch lives in the reader's buffer: reading on from inside would overwrite it.
        await #expect(processExitsWith: .failure) {
            let reader = try TraceReader(bytes: DamagedTraceTests.smallTrace.bytes)
            _ = try reader.nextBatch { _ in _ = try? reader.next() }
        }
        await #expect(processExitsWith: .failure) {
            let reader = try TraceReader(bytes: DamagedTraceTests.smallTrace.bytes)
            _ = try reader.nextBatch { _ in _ = try? reader.nextBatch { _ in } }
        }
    }

    @Test func nextAndNextBatchShareOneStream() throws {
        let bytes = DamagedTraceTests.smallTrace.bytes
        let expected = DamagedTraceTests.smallTrace.events
        let reader = try TraceReader(bytes: bytes)
        var events: [TraceEvent] = []
        // Alternate: an event, then the rest of its chunk, then an event of the next…
        while true {
            guard let event = try reader.next() else { break }
            events.append(event)
            _ = try reader.nextBatch { batch in
                for position in 0..<batch.count { events.append(batch.event(at: position)) }
            }
        }
        #expect(events == expected)
        #expect(reader.eventsRead == expected.count)
        #expect(reader.truncation == nil)
    }
}

extension BatchReadingTests.Outcome {
    mutating func finish(_ reader: TraceReader) {
        truncation = reader.truncation
        end = reader.end
        eventsRead = reader.eventsRead
        chunksRead = reader.chunksRead
        skippedEvents = reader.skippedEvents
        threadCount = reader.threadCount
    }
}
