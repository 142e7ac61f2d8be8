import ReactorCore
import ReactorInspector
import ReactorTrace
import Testing

/// The importer's per-event output: each event handed on already resolved
/// (names by the one rule, slices paired with depth, durations and self time,
/// root actions, value changes), and the model built the same as without a visitor.
@Suite struct ImportedEventTests {
    /// Collects what the importer hands on, resolving names as a view would.
    struct Collector: ImportedEventVisitor {
        var events: [ImportedEvent] = []
        var names: [String] = []
        var actions: [String?] = []
        var values: [(previous: String?, value: String?)] = []

        mutating func visit(_ event: ImportedEvent, from importer: TraceModelBuilder) {
            events.append(event)
            names.append(event.node >= 0 ? importer.name(ofNode: event.node) : "")
            actions.append(event.rootAction >= 0 ? importer.actionName(event.rootAction) : nil)
            values.append(event.value == .changed ? importer.changedValues.map { ($0.previous, $0.value) } ?? (nil, nil)
                                                  : (nil, nil))
        }
    }

    static func imported(_ events: [TraceEvent], options: TraceModelOptions = TraceModelOptions(tracksValues: true))
        -> (Collector, TraceModel) {
        let importer = TraceModelBuilder(options: options)
        var collector = Collector()
        for event in events { importer.consume(event, visiting: &collector) }
        return (collector, importer.finish())
    }

    @Test func slicesArePairedWithDepthDurationAndSelfTime() throws {
        var script = EventScript()
        script.create(1, .computation, "outer")
        script.create(2, .computation, "")
        script.run(1, first: true, duration: 100) { inner in
            inner.run(2, first: true, duration: 30)
        }
        let (seen, _) = Self.imported(script.events)
        #expect(seen.names == ["outer", "autorun#2", "outer", "autorun#2", "autorun#2", "outer"])
        let ends = seen.events.filter { $0.kind == .rerunEnded }
        #expect(ends.map(\.depth) == [1, 0])
        let inner = try #require(ends[0].slice), outer = try #require(ends[1].slice)
        #expect(inner.durationNanoseconds == 30 && inner.selfNanoseconds == 30 && inner.firstRun && inner.ends)
        #expect(outer.durationNanoseconds == 140 && outer.selfNanoseconds == 110)
        #expect(seen.events.filter { $0.kind == .rerunBegan }.map(\.depth) == [0, 1])
    }

    /// A write's change follows its value event on its thread, but another thread's chunk can
    /// come between them in the file, writing the same node: each change shows its own write.
    @Test func aChangeCarriesItsOwnThreadsWriteWhenAnotherThreadsChunkComesBetween() throws {
        let (seen, _) = Self.imported([
            TraceEvent(timestamp: 1, thread: 1, record: .nodeCreated(id: 2, kind: .reactiveProperty, name: "count", parent: 0)),
            TraceEvent(timestamp: 1, thread: 1, record: .value(node: 2, value: "0")),
            // Thread 1's chunk ends after its write's value event…
            TraceEvent(timestamp: 20, thread: 1, record: .value(node: 2, value: "1")),
            // …thread 2's chunk, later in the file and later in time, writes the node…
            TraceEvent(timestamp: 30, thread: 2, record: .value(node: 2, value: "2")),
            TraceEvent(timestamp: 30, thread: 2, record: .changed(dependency: 2)),
            // …and thread 1's next chunk begins with the change of its write.
            TraceEvent(timestamp: 21, thread: 1, record: .changed(dependency: 2)),
        ])
        let changes = seen.events.indices.filter { seen.events[$0].kind == .changed }
        #expect(changes.map { seen.events[$0].value } == [ImportedValue.changed, .changed])
        #expect(changes.map { seen.values[$0].previous } == ["1", "0"])
        #expect(changes.map { seen.values[$0].value } == ["2", "1"])
    }

    @Test func runsKnowTheActionThatCausedThemAndChangesTheirValues() throws {
        let (seen, model) = Self.imported(ReplayValueTests.events + [
            TraceEvent(timestamp: 7, thread: 0, record: .nodeCreated(id: 3, kind: .computation, name: "label", parent: 0)),
            TraceEvent(timestamp: 8, thread: 0, record: .actionBegan(store: 1, name: "setVisibilityFilter(_:)",
                                                                   arguments: "all")),
            TraceEvent(timestamp: 8, thread: 0, record: .value(node: 2, value: "all")),
            TraceEvent(timestamp: 8, thread: 0, record: .changed(dependency: 2)),
            TraceEvent(timestamp: 8, thread: 0, record: .invalidated(computation: 3, cause: .dependency, source: 2)),
            TraceEvent(timestamp: 9, thread: 0, record: .actionEnded(store: 1)),
            TraceEvent(timestamp: 10, thread: 0, record: .rerunBegan(computation: 3, firstRun: false)),
            TraceEvent(timestamp: 12, thread: 0, record: .rerunEnded(computation: 3)),
        ])
        let kinds = seen.events.map(\.kind)
        // A first value, then a write's value and the change that carries it.
        #expect(seen.events.filter { $0.kind == .value }.map(\.value) == [.first, .written, .written, .written])
        let changes = kinds.indices.filter { kinds[$0] == .changed }
        #expect(changes.map { seen.events[$0].value } == [.changed, .changed, .none, .changed])
        #expect(seen.values[changes[0]].previous == "all" && seen.values[changes[0]].value == "active")
        #expect(seen.values[changes[3]].previous == "completed" && seen.values[changes[3]].value == "all")
        // The rerun after the action belongs to it, through change and invalidation.
        let rerun = try #require(kinds.lastIndex(of: .rerunBegan))
        #expect(seen.names[rerun] == "label")
        #expect(seen.actions[rerun] == "TodoStore.setVisibilityFilter(_:)")
        let invalidation = try #require(kinds.firstIndex(of: .invalidated))
        #expect(seen.events[invalidation].relatedNode >= 0)
        // Actions: the begin and end carry the action, the end its duration; outermost.
        let ends = seen.events.filter { $0.kind == .actionEnded }
        #expect(ends.allSatisfy { $0.slice?.outermost == true && $0.action >= 0 })
        #expect(ends.last?.slice?.durationNanoseconds == 1)
        #expect(model.node(3)?.runs.reruns == 1)
    }

    @Test func visitingBuildsTheSameModel() {
        let script = EventScript.todos(adds: 5)
        let (seen, visited) = Self.imported(script.events, options: TraceModelOptions())
        let plain = script.model()
        #expect(seen.events.count == script.events.count)
        #expect(visited.nodes.map(\.name) == plain.nodes.map(\.name))
        #expect(visited.nodes.map(\.runs) == plain.nodes.map(\.runs))
        #expect(visited.actions == plain.actions)
        #expect(visited.edges.count == plain.edges.count)
    }

    @Test func aFlushIsASliceOfItsOwn() throws {
        var script = EventScript()
        script.create(1, .computation, "a")
        script.flush { flush in flush.run(1, duration: 20) }
        let (seen, _) = Self.imported(script.events)
        let end = try #require(seen.events.last)
        #expect(end.kind == .flushEnded)
        #expect(end.slice?.kind == .flush && end.slice?.durationNanoseconds == 40 && end.slice?.ends == true)
        #expect(seen.events.first { $0.kind == .flushBegan }?.slice?.ends == false)
    }
}
