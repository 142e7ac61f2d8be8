import Foundation
@testable import ReactorInspector
import ReactorInspectorServer
import ReactorTraceFormat
import Testing

extension IndexCommandTests {
    /// Windows across the trace: all of it, a tenth at its start, middle and end, a sliver,
    /// one past its end and one before it.
    static func timelineWindows(of model: TraceModel) -> [(UInt64?, UInt64?)] {
        let begin = model.firstTimestamp, span = max(model.durationNanoseconds, 1)
        func at(_ permille: UInt64) -> UInt64 { begin + span / 1000 * permille }
        return [(nil, nil), (at(0), at(100)), (at(450), at(550)), (at(900), nil), (at(300), at(301)),
                (nil, at(500)), (at(1000) + 1_000_000, at(1000) + 2_000_000), (0, begin > 0 ? begin - 1 : 0)]
    }

    /// The overview serve's follower gathers as it reads the trace at `path` (``OverviewCollector``'s
    /// own stretches, or those of `collector`), which the index file does not keep.
    static func overview(of path: String, into collector: OverviewCollector = OverviewCollector()) throws
        -> IndexedOverview? {
        var collector = collector
        let builder = TraceModelBuilder()
        _ = try TraceFile.forEachBatch(path: path) { batch in
            builder.consume(batch, marking: &collector)
            collector.took(events: batch.count)
        }
        return collector.overview(open: TraceTimelineBuilder.open(in: builder, threads: builder.threadIndexes))
    }

    /// The index with the overview serve's follower gathers as it reads (``overview(of:into:)``).
    static func gathered(_ index: TraceIndex, path: String) throws -> TraceIndex {
        var changed = index
        changed.overview = try overview(of: path)
        return changed
    }

    /// `serve`'s timeline from the index (drawn from the overview's stretches, the others read
    /// from the snapshot before them) is the pass's, byte for byte, for every window and width,
    /// from a snapshot before every chunk and from the index's own spacing, with the overview
    /// the index holds and with finer stretches of coarser or of nanosecond buckets; a window
    /// late in a trace of many chunks reads fewer of its events than a pass, and one the
    /// overview draws alone reads none.
    @Test(arguments: IndexCommandTests.traces)
    func timelineFromTheIndexIsThePass(sample: String) throws {
        let path = try Self.copy(of: sample, as: "timeline")
        let (model, _) = try TraceFile.model(path: path)
        // Read from the trace alone, whatever the index: the overviews (the index's own stretches,
        // finer ones of coarser buckets, and of nanosecond buckets) and the passes' timelines, once.
        let overviews = [(try Self.overview(of: path), false),
                         (try Self.overview(of: path, into: OverviewCollector(eventsPerStretch: 211, eventsPerRecord: 3)), false),
                         (try Self.overview(of: path, into: OverviewCollector(eventsPerStretch: 97, eventsPerRecord: 0)), true)]
        let windows = Self.timelineWindows(of: model), widths = [1000, 37]
        let passes = try windows.map { from, to in
            try widths.map { width in try JSONText.encode(TraceTimeline.read(path: path, from: from, to: to, width: width)) }
        }
        for interval in [UInt64(1), nil] {
            let (file, _) = try TraceIndex.build(forTrace: path, progress: nil, snapshotInterval: interval)
            #expect(file.overview == nil)
            for (overview, drawsAlone) in overviews {
                var index = file
                index.overview = overview
                for ((from, to), pass) in zip(windows, passes) {
                    for (width, pass) in zip(widths, pass) {
                        let counted = TracePass()
                        let indexed = try #require(counted.run {
                            TraceTimeline.read(path: path, from: from, to: to, width: width, index: index,
                                               threads: model.threadIndexes)
                        })
                        #expect(try JSONText.encode(indexed) == pass, "\(sample) \(from ?? 0)–\(to ?? 0) \(width)")
                        if interval == 1, index.batches.count > 20, let from, from > model.firstTimestamp + model.durationNanoseconds / 2 {
                            #expect(counted.eventsRead < index.events * 3 / 4, "\(sample): \(counted.eventsRead) of \(index.events)")
                        }
                        if drawsAlone { #expect(counted.eventsRead == 0, "\(sample): \(counted.eventsRead) read") }
                    }
                }
            }
        }
    }

    /// An overview cut short, with a byte too many, or out of range (another trace's: sound
    /// bytes of another chunk table) makes the index unusable for the timeline: no answer from
    /// it, the index dropped with one note; and `/api/timeline` given such a follower's index
    /// answers by a pass, the same bytes as `serve --no-index`.
    @Test func aHostileOverviewIsDroppedAndThePassAnswers() throws {
        let path = try Self.copy(of: "threads-values", as: "hostile-overview")
        let (model, _) = try TraceFile.model(path: path)
        let built = try Self.gathered(TraceIndex.build(forTrace: path, progress: nil, snapshotInterval: nil).0,
                                      path: path)
        let bytes = try #require(built.overview).bytes
        let other = try Self.copy(of: "counter", as: "hostile-overview-other")
        let foreign = try Self.gathered(TraceIndex.build(forTrace: other, progress: nil, snapshotInterval: nil).0,
                                        path: other)
        #expect(foreign.batches.count != built.batches.count)
        let follower = TraceFollower(path: path, snapshotInterval: 4096)
        try follower.readFirst(budget: 60)
        let followed = follower.current
        #expect(followed.index?.overview != nil)
        let begin = try #require(built.batches.lazy.map(\.firstTime).min())
        // `serve --no-index`'s answer for each window reads the trace alone: asked once, not once per damage.
        let windows = Self.timelineWindows(of: model)
        let passes = windows.map { from, to in
            InspectorAPI(follower: follower, answersFromIndex: false).timeline(from: from, to: to, width: 500, in: followed)
        }
        for damaged in [Array(bytes.dropLast()), Array(bytes.prefix(bytes.count / 2)), bytes + [0],
                        try #require(foreign.overview).bytes] {
            var index = built
            index.overview = IndexedOverview(bytes: damaged)
            #expect(TraceTimeline.read(path: path, from: nil, to: nil, width: 500, index: index,
                                       threads: model.threadIndexes) == nil)
            var notes: [String] = []
            let session = TraceIndexSession(tracePath: path, note: { notes.append($0) })
            #expect(notes.isEmpty)
            session.index = index
            for width in [500, 37] {
                #expect(session.timeline(from: begin, to: index.latestTimestamp, width: width,
                                         threads: model.threadIndexes) == nil)
            }
            #expect(session.index == nil)
            #expect(notes.count == 1, "\(notes)")
            #expect(notes.first?.hasSuffix("rebuilding it") == true, "\(notes)")

            var hostile = followed
            hostile.index?.overview = IndexedOverview(bytes: damaged)
            for ((from, to), pass) in zip(windows, passes) {
                let answer = InspectorAPI(follower: follower).timeline(from: from, to: to, width: 500, in: hostile)
                #expect(answer.status == 200)
                #expect(answer.body == pass.body, "\(from ?? 0)–\(to ?? 0)")
            }
        }
        var none = built
        none.overview = nil
        #expect(TraceTimeline.read(path: path, from: nil, to: nil, width: 500, index: none,
                                   threads: model.threadIndexes) == nil)
    }

    /// The page's `/api/timeline` answers from the follower's index as by a pass (`serve --no-index`),
    /// reading less than half of the events for the last tenth of the trace.
    @Test func serveTimelineFromTheFollowersIndex() throws {
        let path = try Self.copy(of: "threads-values", as: "serve-timeline")
        let (model, _) = try TraceFile.model(path: path)
        let follower = TraceFollower(path: path, snapshotInterval: 4096)
        try follower.readFirst(budget: 60)
        #expect(follower.current.index?.moments != nil)
        let late = model.firstTimestamp + max(model.durationNanoseconds, 1) / 1000 * 900
        for (from, to) in Self.timelineWindows(of: model) {
            var read: [Int] = []
            let bodies = [true, false].map { answersFromIndex in
                let pass = TracePass()
                let answer = pass.run {
                    InspectorAPI(follower: follower, answersFromIndex: answersFromIndex).timeline(from: from, to: to, width: 500)
                }
                read.append(pass.eventsRead)
                return answer
            }
            #expect(bodies[0].status == 200)
            let same = bodies[0].body == bodies[1].body
            #expect(same, "\(from ?? 0)–\(to ?? 0)")
            if from == late { #expect(read[0] < read[1] / 2, "\(read[0]) events read from the index, \(read[1]) by a pass") }
        }
    }
}
