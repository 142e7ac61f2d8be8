import ReactorInspector
import ReactorTrace
import Testing

/// The page's timeline: slices as the importer pairs them, at their depth,
/// and an answer bounded by the picture's width, not by the trace.
struct TraceTimelineTests {
    @Test func actionsRunsAndFlushesAreSlicesAtTheirDepth() {
        let timeline = TraceTimeline.build(TraceScript.todos(count: 3), width: 10_000)
        #expect(timeline.tracks.map(\.thread) == [0])
        let slices = timeline.tracks[0].slices
        let actions = slices.filter { $0.kind == "action" }
        #expect(actions.count == 3)
        #expect(actions.allSatisfy { $0.depth == 0 && $0.name == "TodoStore.addTodo(_:)" && $0.count == 1 })
        #expect(slices.filter { $0.kind == "flush" }.allSatisfy { $0.depth == TraceTimeline.flushDepth })
        #expect(slices.filter { $0.kind == "flush" }.count == 3)
        // The list's reruns inside each action: 200 µs each, one level in.
        let reruns = slices.filter { $0.name == "TodoList.list" && $0.depth == 1 }
        #expect(reruns.count == 3)
        #expect(reruns.allSatisfy { $0.durationNanoseconds == 200_010 || $0.durationNanoseconds == 200_000 })
        #expect(timeline.tracks[0].depth == 2)
        #expect(!slices.contains { $0.unfinished })
    }

    /// Ten thousand short runs in a picture 100 pixels wide: at most a slice
    /// per pixel, and the sums account for every run and its time.
    @Test func runsNarrowerThanAPixelAreSummedPerPixel() {
        var script = TraceScript()
        script.setUp()
        for _ in 0..<10_000 {
            script.add(.rerunBegan(computation: TraceScript.footer, firstRun: false), advance: 100)
            script.add(.rerunEnded(computation: TraceScript.footer), advance: 100)
        }
        let timeline = TraceTimeline.build(script.events, width: 100)
        // The outermost runs' row: the three first runs of the set-up and the ten thousand reruns.
        let row = timeline.tracks[0].slices.filter { $0.depth == 0 }
        #expect(row.count <= 100 + 1)
        #expect(row.reduce(0) { $0 + $1.count } == 10_003)
        #expect(row.reduce(UInt64(0)) { $0 + $1.totalNanoseconds } == 10_000 * 100 + 3 * 100)
        #expect(row.contains { $0.count > 1 })
    }

    @Test func aRunTheTraceEndedInsideIsDrawnToTheLastEventAsUnfinished() {
        var script = TraceScript()
        script.setUp()
        script.add(.rerunBegan(computation: TraceScript.list, firstRun: false), advance: 1_000)
        script.add(.changed(dependency: TraceScript.todos), advance: 5_000)
        let timeline = TraceTimeline.build(script.events, width: 1_000)
        let open = timeline.tracks[0].slices.filter(\.unfinished)
        #expect(open.count == 1)
        #expect(open.first?.name == "TodoList.list")
        #expect(open.first?.durationNanoseconds == 5_000)
    }

    @Test func aWindowKeepsOnlyWhatOverlapsIt() throws {
        let events = TraceScript.todos(count: 3)
        let actions = TraceTimeline.build(events, width: 10_000).tracks[0].slices.filter { $0.kind == "action" }
        let second = try #require(actions.dropFirst().first)
        let timeline = TraceTimeline.build(events, from: second.beginNanoseconds,
                                           to: second.beginNanoseconds + second.durationNanoseconds, width: 10_000)
        let shown = timeline.tracks[0].slices.filter { $0.kind == "action" }
        #expect(shown.map(\.beginNanoseconds) == [second.beginNanoseconds])
        #expect(timeline.fromNanoseconds == second.beginNanoseconds)
    }
}
