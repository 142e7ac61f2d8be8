import Foundation
import ReactorCore
import Testing
@testable import ReactorTrace

/// The fixed-size events take a fast path while their segment has room and the
/// thread has a time (timed ones only with the cycle counter), and the slow path
/// otherwise: both must write the same events. Small segments make every few
/// events cross a segment boundary, where the slow path starts a fresh context.
@Suite struct FastPathTests {
    /// A node update's events, for many nodes, with ids that jump around so the
    /// deltas take one, two and three varint bytes.
    static let updates: [TraceRecord] = (0..<400).flatMap { index -> [TraceRecord] in
        let computation = UInt64(1 + (index * 7_919) % 20_011)
        let dependency = UInt64(1 + (index * 104_729) % 3_000_017)
        return [
            .changed(dependency: dependency),
            .invalidated(computation: computation, cause: index % 3 == 0 ? .explicit : .dependency,
                         source: index % 3 == 0 ? 0 : dependency),
            .rerunBegan(computation: computation, firstRun: index % 5 == 0),
            .depend(computation: computation, dependency: dependency),
            .rerunEnded(computation: computation),
            .nodeStopped(id: computation),
            .actionEnded(store: dependency),
            index % 2 == 0 ? .flushBegan : .flushEnded,
        ]
    }

    @Test(arguments: [false, true], [256, 64 << 10])
    func fastAndSlowPathsWriteTheSameEvents(usesCycleCounter: Bool, segmentCapacity: Int) throws {
        let bytes = try TraceFixtures.record(options: .init(segmentCapacity: segmentCapacity,
                                                            usesCycleCounter: usesCycleCounter)) { recorder in
            for record in Self.updates { record.send(to: recorder) }
        }
        let (events, reader) = try TraceFixtures.readAll(bytes)
        #expect(events.map(\.record) == Self.updates)
        #expect(reader.truncation == nil)
        // The thread's first event is untimed: a clock event gives it a time.
        #expect(reader.clockEvents == 1)
        #expect(reader.end?.events == UInt64(Self.updates.count + 1))
        var previous: UInt64 = 0
        for event in events {
            #expect(event.timestamp >= previous)
            previous = event.timestamp
        }
        #expect(events.first?.timestamp ?? 0 > 0)
    }
}

extension FastPathTests {
    /// 400 runs' computation, output and reader ids, some far apart, so that
    /// the combined run ends' fields take varints of up to seven bytes.
    static let farApartTriples: [(computation: UInt64, output: UInt64, reader: UInt64)] = (0..<400).map { (index: Int) in
        let computation = UInt64(1 + (index * 7_919) % 20_011)
        let output = index % 7 == 0 ? UInt64(1) << 41 - UInt64(index) : UInt64(1 + (index * 104_729) % 3_000_017)
        let reader = index % 5 == 0 ? UInt64(1) << 40 + UInt64(index) : UInt64(1 + (index * 15_485_863) % 70_001)
        return (computation, output, reader)
    }
}

extension FastPathTests {
    /// `rerunEnded(computation:changed:)` writes a run's end and its value's
    /// change as the two events the separate calls write, on the fast path and
    /// across segment boundaries alike.
    @Test(arguments: [false, true], [256, 64 << 10])
    func runEndWithChangeWritesBothEvents(usesCycleCounter: Bool, segmentCapacity: Int) throws {
        let pairs: [(computation: UInt64, output: UInt64)] = (0..<400).map { (index: Int) in
            let computation = UInt64(1 + (index * 7_919) % 20_011)
            let output = UInt64(1 + (index * 104_729) % 3_000_017)
            return (computation, output)
        }
        var expected: [TraceRecord] = []
        for pair in pairs {
            expected.append(.rerunBegan(computation: pair.computation, firstRun: false))
            expected.append(.rerunEnded(computation: pair.computation))
            expected.append(.changed(dependency: pair.output))
        }
        let bytes = try TraceFixtures.record(options: .init(segmentCapacity: segmentCapacity,
                                                            usesCycleCounter: usesCycleCounter)) { recorder in
            for pair in pairs {
                recorder.rerunBegan(computation: pair.computation, firstRun: false)
                recorder.rerunEnded(computation: pair.computation, changed: pair.output)
            }
        }
        let (events, reader) = try TraceFixtures.readAll(bytes)
        #expect(events.map(\.record) == expected)
        #expect(reader.truncation == nil)
        #expect(reader.end?.events == UInt64(expected.count))
        // The change is untimed: it has its run end's time.
        for index in stride(from: 1, to: events.count, by: 3) {
            #expect(events[index + 1].timestamp == events[index].timestamp)
        }
    }
}

extension FastPathTests {
    /// `rerunEnded(computation:changed:invalidated:)` writes a run's end, its
    /// value's change and the reader's invalidation as the three events the
    /// separate calls write, on the fast path and across segment boundaries
    /// alike; ids far apart make the fields take varints of up to seven bytes.
    @Test(arguments: [false, true], [256, 64 << 10])
    func runEndWithChangeAndInvalidationWritesTheThreeEvents(usesCycleCounter: Bool, segmentCapacity: Int) throws {
        let triples = Self.farApartTriples
        var expected: [TraceRecord] = []
        for triple in triples {
            expected.append(.rerunBegan(computation: triple.computation, firstRun: false))
            expected.append(.rerunEnded(computation: triple.computation))
            expected.append(.changed(dependency: triple.output))
            expected.append(.invalidated(computation: triple.reader, cause: .dependency, source: triple.output))
        }
        let bytes = try TraceFixtures.record(options: .init(segmentCapacity: segmentCapacity,
                                                            usesCycleCounter: usesCycleCounter)) { recorder in
            for triple in triples {
                recorder.rerunBegan(computation: triple.computation, firstRun: false)
                recorder.rerunEnded(computation: triple.computation, changed: triple.output, invalidated: triple.reader)
            }
        }
        let (events, reader) = try TraceFixtures.readAll(bytes)
        #expect(events.map(\.record) == expected)
        #expect(reader.truncation == nil)
        #expect(reader.end?.events == UInt64(expected.count))
        // The change and the invalidation are untimed: they have their run end's time.
        for index in stride(from: 1, to: events.count, by: 4) {
            #expect(events[index + 1].timestamp == events[index].timestamp)
            #expect(events[index + 2].timestamp == events[index].timestamp)
        }
    }
}

extension FastPathTests {
    /// The combined run end writes its invalidation's source as a constant
    /// byte (the output the change just put in the register): an output of 0,
    /// which the core never sends, still reads back as the separate calls'
    /// events (source 0), on the fast path and the slow one.
    @Test(arguments: [false, true], [256, 64 << 10])
    func runEndWithAnOutputOfZeroReadsBackAsTheSeparateCalls(usesCycleCounter: Bool, segmentCapacity: Int) throws {
        let computations: [UInt64] = (0..<200).map { UInt64(1 + ($0 * 7_919) % 20_011) }
        var expected: [TraceRecord] = []
        for computation in computations {
            expected.append(.rerunBegan(computation: computation, firstRun: false))
            expected.append(.rerunEnded(computation: computation))
            expected.append(.changed(dependency: 0))
            expected.append(.invalidated(computation: computation &+ 1, cause: .dependency, source: 0))
        }
        let options = TraceRecorder.Options(segmentCapacity: segmentCapacity, usesCycleCounter: usesCycleCounter)
        let bytes = try TraceFixtures.record(options: options) { recorder in
            for computation in computations {
                recorder.rerunBegan(computation: computation, firstRun: false)
                recorder.rerunEnded(computation: computation, changed: 0, invalidated: computation &+ 1)
            }
        }
        let (events, reader) = try TraceFixtures.readAll(bytes)
        #expect(events.map(\.record) == expected)
        #expect(reader.truncation == nil)
        #expect(reader.end?.events == UInt64(expected.count))
    }
}

extension FastPathTests {
    /// `rerunEnded(computation:changed:rerunning:)` writes a run's end, its
    /// value's change, the reader's invalidation and the begin of the reader's
    /// rerun as the four events the separate calls write, the begin at the
    /// end's time, on the fast path and across segment boundaries alike; ids
    /// far apart make the fields take varints of up to seven bytes.
    @Test(arguments: [false, true], [256, 64 << 10])
    func runEndWithRerunWritesTheFourEventsAtOneTime(usesCycleCounter: Bool, segmentCapacity: Int) throws {
        let triples = Self.farApartTriples
        var expected: [TraceRecord] = []
        for triple in triples {
            expected.append(.rerunBegan(computation: triple.computation, firstRun: false))
            expected.append(.rerunEnded(computation: triple.computation))
            expected.append(.changed(dependency: triple.output))
            expected.append(.invalidated(computation: triple.reader, cause: .dependency, source: triple.output))
            expected.append(.rerunBegan(computation: triple.reader, firstRun: false))
            expected.append(.depend(computation: triple.reader, dependency: triple.output))
            expected.append(.rerunEnded(computation: triple.reader))
        }
        let bytes = try TraceFixtures.record(options: .init(segmentCapacity: segmentCapacity,
                                                            usesCycleCounter: usesCycleCounter)) { recorder in
            for triple in triples {
                recorder.rerunBegan(computation: triple.computation, firstRun: false)
                recorder.rerunEnded(computation: triple.computation, changed: triple.output, rerunning: triple.reader)
                recorder.depend(computation: triple.reader, dependency: triple.output)
                recorder.rerunEnded(computation: triple.reader)
            }
        }
        let (events, reader) = try TraceFixtures.readAll(bytes)
        #expect(events.map(\.record) == expected)
        #expect(reader.truncation == nil)
        #expect(reader.end?.events == UInt64(expected.count))
        // The change, the invalidation and the rerun's begin have the end's time.
        for index in stride(from: 1, to: events.count, by: 7) {
            #expect(events[index + 1].timestamp == events[index].timestamp)
            #expect(events[index + 2].timestamp == events[index].timestamp)
            #expect(events[index + 3].timestamp == events[index].timestamp)
            #expect(events[index + 5].timestamp >= events[index + 3].timestamp)
        }
    }
}

extension FastPathTests {
    /// The recorder's entry point for a run's end followed by the flush's
    /// next rerun (`TraceHotPaths.rerunEndedBeginning`) writes the end and
    /// the begin (not a first run) as the separate calls do, the begin at
    /// the end's time, on the fast path and across segment boundaries alike;
    /// ids far apart make the fields take varints of up to seven bytes.
    @Test(arguments: [false, true], [256, 64 << 10])
    func runEndWithTheNextRerunWritesBothEventsAtOneTime(usesCycleCounter: Bool, segmentCapacity: Int) throws {
        let triples = Self.farApartTriples
        var expected: [TraceRecord] = []
        for triple in triples {
            expected.append(.rerunBegan(computation: triple.computation, firstRun: false))
            expected.append(.rerunEnded(computation: triple.computation))
            expected.append(.rerunBegan(computation: triple.reader, firstRun: false))
            expected.append(.depend(computation: triple.reader, dependency: triple.output))
            expected.append(.rerunEnded(computation: triple.reader))
        }
        let bytes = try TraceFixtures.record(options: .init(segmentCapacity: segmentCapacity,
                                                            usesCycleCounter: usesCycleCounter)) { recorder in
            let hot = recorder.hotPaths
            for triple in triples {
                recorder.rerunBegan(computation: triple.computation, firstRun: false)
                hot.rerunEndedBeginning(hot.context, triple.computation, triple.reader)
                recorder.depend(computation: triple.reader, dependency: triple.output)
                recorder.rerunEnded(computation: triple.reader)
            }
        }
        let (events, reader) = try TraceFixtures.readAll(bytes)
        #expect(events.map(\.record) == expected)
        #expect(reader.truncation == nil)
        #expect(reader.end?.events == UInt64(expected.count))
        // The rerun's begin has the end's time.
        for index in stride(from: 1, to: events.count, by: 5) {
            #expect(events[index + 1].timestamp == events[index].timestamp)
            #expect(events[index + 3].timestamp >= events[index + 1].timestamp)
        }
    }
}

extension FastPathTests {
    /// A run's reads after its begin, its end after its last read and the
    /// invalidations of one change after its first find their ids in the
    /// encoding registers already, and skip the delta (code 0, or 1 for a
    /// source): they read back as the ids sent, through the protocol's
    /// methods and the hot entry points alike, also where a segment boundary
    /// resets the registers to 0 (256-byte segments); a source of 0 (none)
    /// sent twice in a row reads back as none, and a read by another run
    /// whose id is near the register's reads back as its own.
    @Test(arguments: [false, true], [256, 64 << 10])
    func idsAlreadyInTheirRegistersReadBack(usesCycleCounter: Bool, segmentCapacity: Int) throws {
        var expected: [TraceRecord] = []
        let bytes = try TraceFixtures.record(options: .init(segmentCapacity: segmentCapacity,
                                                            usesCycleCounter: usesCycleCounter)) { recorder in
            let hot = recorder.hotPaths
            for index in 0..<300 {
                let computation = UInt64(1 + (index * 7_919) % 20_011)
                let output = UInt64(1 + (index * 104_729) % 3_000_017)
                let readers = (1...3).map { computation + UInt64($0 * (index % 4 == 0 ? 100_000 : 1)) }
                recorder.rerunBegan(computation: computation, firstRun: false)
                expected.append(.rerunBegan(computation: computation, firstRun: false))
                for read in 0..<3 {
                    let source = UInt64(index * 3 + read + 1) << (index % 2 == 0 ? 0 : 30)
                    if read % 2 == 0 {
                        _ = hot.depend(hot.context, computation, source)
                    } else {
                        recorder.depend(computation: computation, dependency: source)
                    }
                    expected.append(.depend(computation: computation, dependency: source))
                }
                expected.append(.rerunEnded(computation: computation))
                expected.append(.changed(dependency: output))
                switch index % 3 {
                case 0:
                    hot.rerunEndedChanged(hot.context, computation, output)
                    hot.invalidated(hot.context, readers[0], .dependency, output)
                    expected.append(.invalidated(computation: readers[0], cause: .dependency, source: output))
                case 1:
                    recorder.rerunEnded(computation: computation, changed: output, invalidated: readers[0])
                    expected.append(.invalidated(computation: readers[0], cause: .dependency, source: output))
                default:
                    hot.rerunEndedRerunning(hot.context, computation, output, readers[0])
                    expected.append(.invalidated(computation: readers[0], cause: .dependency, source: output))
                    expected.append(.rerunBegan(computation: readers[0], firstRun: false))
                    recorder.rerunEnded(computation: readers[0])
                    expected.append(.rerunEnded(computation: readers[0]))
                }
                // The change's other readers: the source is the register's.
                for reader in readers.dropFirst() {
                    if index % 2 == 0 {
                        hot.invalidated(hot.context, reader, .dependency, output)
                    } else {
                        recorder.invalidated(computation: reader, cause: .dependency, source: output)
                    }
                    expected.append(.invalidated(computation: reader, cause: .dependency, source: output))
                }
                for _ in 0..<2 {
                    hot.invalidated(hot.context, readers[1], .explicit, 0)
                    expected.append(.invalidated(computation: readers[1], cause: .explicit, source: 0))
                }
                // A read by another run, whose id is near the register's (an
                // outer run reading the computed whose run just ended).
                _ = hot.depend(hot.context, readers[0], output)
                expected.append(.depend(computation: readers[0], dependency: output))
            }
        }
        let (events, reader) = try TraceFixtures.readAll(bytes)
        #expect(events.map(\.record) == expected)
        #expect(reader.truncation == nil)
        #expect(reader.end?.events == UInt64(expected.count))
    }
}
