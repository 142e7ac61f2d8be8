import Foundation
@testable import ReactorInspector
import ReactorTraceFormat
import Testing
import TraceForgery

/// The index's overview (``OverviewCollector``, ``IndexedOverview``) draws the timeline a pass
/// draws: on random event sequences (nested, thrown and unmatched runs, actions ended out of
/// order, nested and unmatched flushes, names given and changed, issues, several threads),
/// for windows and widths across them; and any bytes decode to a section or an error.
struct TimelineOverviewTests {
    /// A random trace's events, in batches of one thread each (as a reader lends them).
    struct Script {
        var events: [TraceEvent] = []
        var batches: [(thread: UInt32, events: [TraceEvent])] = []

        init<Generator: RandomNumberGenerator>(count: Int, using random: inout Generator) {
            var clocks: [UInt32: UInt64] = [:]
            var open: [UInt32: [(isAction: Bool, id: UInt64)]] = [:]
            let ids: [UInt64] = [1, 2, 3, 4, 5, 6, 7, 1 << 23, 1 << 40]
            let names = ["", "a", "b", "Store", "c.d"]
            while events.count < count {
                let thread = UInt32.random(in: 0...2, using: &random)
                var batch: [TraceEvent] = []
                for _ in 0..<Int.random(in: 1...12, using: &random) {
                    // A thread's times never decrease; now and then a step of 0, a long one, or (hostile) a step back.
                    let step: UInt64 = switch Int.random(in: 0..<20, using: &random) {
                    case 0: 0
                    case 1: UInt64.random(in: 10_000...1_000_000, using: &random)
                    default: UInt64.random(in: 1...500, using: &random)
                    }
                    var time = (clocks[thread] ?? 1_000) + step
                    if Int.random(in: 0..<200, using: &random) == 0 { time -= min(time, 700) }
                    clocks[thread] = time
                    let id = ids.randomElement(using: &random)!
                    let record: TraceRecord
                    switch Int.random(in: 0..<16, using: &random) {
                    case 0...3:
                        record = .rerunBegan(computation: id, firstRun: Bool.random(using: &random))
                        open[thread, default: []].append((false, id))
                    case 4...6:
                        // Mostly the innermost run's end; else another run's (what is open inside it ends with it) or none open.
                        let runs = open[thread, default: []].filter { !$0.isAction }
                        let target = Int.random(in: 0..<4, using: &random) > 0 ? runs.last?.id ?? id : id
                        record = .rerunEnded(computation: target)
                        if let found = open[thread]?.lastIndex(where: { !$0.isAction && $0.id == target }) {
                            open[thread]!.removeSubrange(found...)
                        }
                    case 7:
                        record = .actionBegan(store: [0, 1, 2].randomElement(using: &random)!,
                                              name: ["add", "remove"].randomElement(using: &random)!, arguments: "")
                        open[thread, default: []].append((true, 0))
                    case 8:
                        record = .actionEnded(store: [0, 1, 2].randomElement(using: &random)!)
                    case 9: record = .flushBegan
                    case 10: record = .flushEnded
                    case 11:
                        record = .nodeCreated(id: id, kind: TraceNodeKind.allCases.randomElement(using: &random)!,
                                              name: names.randomElement(using: &random)!, parent: 0)
                    case 12:
                        record = .nodeNamed(id: id, name: names.randomElement(using: &random)!, owner: 0)
                    case 13:
                        record = .issue(kind: TraceIssueKind.allCases.randomElement(using: &random)!, node: id,
                                        message: "m\(events.count)")
                    default:
                        record = .depend(computation: id, dependency: ids.randomElement(using: &random)!)
                    }
                    let event = TraceEvent(timestamp: time, thread: thread, record: record)
                    events.append(event)
                    batch.append(event)
                }
                batches.append((thread, batch))
            }
        }

        /// Lends each batch to `body` as a reader would.
        func forEachBatch(_ body: (borrowing TraceEventBatch) -> Void) {
            for (thread, events) in batches {
                var strings: [String] = []
                let plain = events.map { PlainTraceEvent(timestamp: $0.timestamp, thread: thread,
                                                         record: PlainTraceRecord($0.record, strings: &strings)) }
                plain.withUnsafeBufferPointer { buffer in
                    body(TraceEventBatch(events: buffer, strings: strings, thread: thread))
                }
            }
        }

        var threads: [UInt32] { Set(events.map(\.thread)).sorted() }
    }

    /// The pass's timeline of `script`.
    static func pass(_ script: Script, from: UInt64, to: UInt64, width: Int) -> TraceTimeline {
        var drawing = TraceTimelineBuilder(from: from, to: to, width: width)
        let importer = TraceModelBuilder()
        script.forEachBatch { importer.consume($0, visiting: &drawing) }
        return drawing.finish(importer)
    }

    /// The timeline from `overview` alone, nil when a stretch would have to be read.
    static func fromOverview(_ overview: IndexedOverview, of script: Script, from: UInt64, to: UInt64,
                             width: Int) throws -> TraceTimeline? {
        let decoded = try overview.decode(batchCount: script.batches.count,
                                          threadCount: Int(script.threads.max() ?? 0) + 1)
        var drawing = TraceTimelineBuilder(from: from, to: to, width: width)
        var batches: [TraceIndex.Batch] = []
        for (_, events) in script.batches {
            let times = events.map(\.timestamp)
            batches.append(TraceIndex.Batch(endOffset: 0, firstTime: times.min()!, lastTime: times.max()!))
        }
        for stretch in decoded.stretches {
            guard TraceIndexSession.draws(stretch, in: drawing, batches: batches) else { return nil }
            TraceIndexSession.add(stretch, labels: decoded.labels, to: &drawing)
        }
        let times = script.events.map(\.timestamp)
        drawing.cover(begin: times.min() ?? 0, end: times.max() ?? 0, threads: script.threads)
        return drawing.finish(open: decoded.open)
    }

    /// The overview `collector` gathers of `script`, told by a builder's walk as the index's pass tells it.
    static func gather(_ script: Script, into collector: inout OverviewCollector) -> IndexedOverview {
        let builder = TraceModelBuilder()
        script.forEachBatch { batch in
            builder.consume(batch, marking: &collector)
            collector.took(events: batch.count)
        }
        return collector.overview(open: TraceTimelineBuilder.open(in: builder, threads: builder.threadIndexes))
    }

    static func windows(of script: Script) -> [(UInt64, UInt64)] {
        let times = script.events.map(\.timestamp)
        let begin = times.min() ?? 0, end = times.max() ?? 0, span = end - begin
        return [(begin, end), (begin + span / 3, begin + span / 2), (begin, begin + span / 50),
                (begin + span / 2, end), (begin + span / 7, begin + span / 7 + 3), (0, end + 10_000)]
    }

    /// With a nanosecond bucket (a record per slice), the overview draws every window as the pass does.
    @Test(arguments: 0..<40)
    func theOverviewDrawsWhatThePassDraws(seed: Int) throws {
        var random = SeededGenerator(seed: UInt64(seed))
        let script = Script(count: Int.random(in: 20...600, using: &random), using: &random)
        var collector = OverviewCollector(eventsPerStretch: Int.random(in: 1...200, using: &random), eventsPerRecord: 0)
        let overview = Self.gather(script, into: &collector)
        for (from, to) in Self.windows(of: script) {
            for width in [1, 7, 100, 1000] {
                let drawn = try #require(try Self.fromOverview(overview, of: script, from: from, to: to, width: width))
                let pass = Self.pass(script, from: from, to: to, width: width)
                #expect(try JSONText.encode(drawn) == JSONText.encode(pass), "seed \(seed), \(from)–\(to), \(width)")
            }
        }
    }

    /// With coarse buckets, every window the overview can draw alone is the pass's; the whole
    /// trace at a small width is one of them.
    @Test(arguments: 0..<20)
    func aCoarseOverviewDrawsWhatThePassDraws(seed: Int) throws {
        var random = SeededGenerator(seed: UInt64(seed) &+ 1000)
        let script = Script(count: Int.random(in: 200...3000, using: &random), using: &random)
        var collector = OverviewCollector(eventsPerStretch: Int.random(in: 50...500, using: &random), eventsPerRecord: 4)
        let overview = Self.gather(script, into: &collector)
        var drawnAlone = 0
        for (from, to) in Self.windows(of: script) {
            for width in [1, 3, 10, 100] {
                guard let drawn = try Self.fromOverview(overview, of: script, from: from, to: to, width: width) else { continue }
                drawnAlone += 1
                let pass = Self.pass(script, from: from, to: to, width: width)
                #expect(try JSONText.encode(drawn) == JSONText.encode(pass), "seed \(seed), \(from)–\(to), \(width)")
            }
        }
        #expect(drawnAlone > 0)
    }

    /// Cut or changed bytes decode to an error or to a section, never a crash; a section cut short is an error.
    @Test func hostileBytesAreAnErrorNotACrash() throws {
        var random = SeededGenerator(seed: 7)
        let script = Script(count: 800, using: &random)
        var collector = OverviewCollector(eventsPerStretch: 100, eventsPerRecord: 4)
        let bytes = Self.gather(script, into: &collector).bytes
        let threads = Int(script.threads.max() ?? 0) + 1
        for length in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 97)) {
            #expect(throws: TraceIndexError.self) {
                try IndexedOverview(bytes: Array(bytes[..<length])).decode(batchCount: script.batches.count,
                                                                           threadCount: threads)
            }
        }
        for _ in 0..<300 {
            var changed = bytes
            changed[Int.random(in: 0..<changed.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            for (from, to) in Self.windows(of: script) {
                _ = try? Self.fromOverview(IndexedOverview(bytes: changed), of: script, from: from, to: to, width: 50)
            }
        }
        #expect(throws: TraceIndexError.self) {
            try IndexedOverview(bytes: bytes).decode(batchCount: script.batches.count + 1, threadCount: threads)
        }
    }
}

