import ReactorCore
import ReactorTrace
import Testing
@testable import ReactorInspector

@Suite struct TraceModelTests {
    @Test func nodesHaveKindsNamesAndOwnersIncludingLateNames() throws {
        let model = EventScript.todos().model()
        let todos = try #require(model.node(Todo.todos))
        #expect(todos.kind == .reactiveValue)
        #expect(todos.name == "TodoStore.todos")
        #expect(todos.owner == Todo.store)
        #expect(model.node(Todo.store)?.kind == .store)
        #expect(model.node(Todo.visible)?.kind == .computed)
        #expect(model.nodes.count == 6)
    }

    @Test func unnamedAndUnknownNodesGetReadableNames() {
        var script = EventScript()
        script.create(7, .dependency, "")
        script.depend(9, 7)
        let model = script.model()
        #expect(model.name(of: 7) == "dependency#7")
        // Referred to, never created: its kind is inferred for the analyses, but its name does not claim it.
        #expect(model.node(9)?.kind == .computation)
        #expect(model.name(of: 9) == "#9")
        #expect(model.name(of: 99) == "#99")
    }

    @Test func runsCountFirstRunsRerunsAndDurations() throws {
        let model = EventScript.todos(adds: 3).model()
        let list = try #require(model.node(Todo.list))
        #expect(list.runs.runs == 4)
        #expect(list.runs.firstRuns == 1)
        #expect(list.runs.reruns == 3)
        #expect(list.runs.maxNanoseconds >= 500)
        let visible = try #require(model.node(Todo.visible))
        #expect(visible.runs.reruns == 4)  // 3 adds + the cut-off filter change
    }

    @Test func selfTimeSubtractsNestedRuns() throws {
        var script = EventScript()
        script.create(1, .computation, "outer")
        script.create(2, .computed, "inner")
        script.run(1, first: true, duration: 100) { s in
            s.run(2, first: true, duration: 1_000)
        }
        let model = script.model()
        let outer = try #require(model.node(1))
        let inner = try #require(model.node(2))
        // outer: begin, +10 inner begins, +1000 inner ends, +100 outer ends.
        #expect(inner.runs.totalNanoseconds == 1_000)
        #expect(outer.runs.totalNanoseconds == 1_110)
        #expect(outer.runs.selfNanoseconds == 110)
        #expect(inner.runs.selfNanoseconds == 1_000)
    }

    @Test func invalidationDropsEdgesAndRerunRecollectsThem() {
        var script = EventScript()
        script.create(1, .dependency, "a")
        script.create(2, .dependency, "b")
        script.create(3, .computation, "reader")
        script.run(3, first: true) { s in s.depend(3, 1); s.depend(3, 2) }
        // Untimed events carry the last timed event's time: a snapshot at T
        // holds every event stamped T, so look just before the run's end.
        let duringFirstRun = script.time - 1
        script.changed(1)
        script.invalidate(3, .dependency, 1)
        let whileInvalid = script.time + 1
        script.emit(.flushBegan, after: 5)
        script.run(3) { s in s.depend(3, 2) }  // the rerun reads only b
        script.emit(.flushEnded)
        let atFirst = TraceModelBuilder(options: TraceModelOptions(snapshotAt: duringFirstRun))
        for event in script.events { atFirst.consume(event) }
        #expect(atFirst.finish().snapshot?.edges == [TraceEdgeKey(computation: 3, dependency: 1),
                                                    TraceEdgeKey(computation: 3, dependency: 2)])
        let invalid = script.model(TraceModelOptions(snapshotAt: whileInvalid))
        #expect(invalid.snapshot?.edges == [])
        #expect(invalid.finalEdges == [TraceEdgeKey(computation: 3, dependency: 2)])
        #expect(invalid.edges.count == 2)
        let edgeA = invalid.edges.first { $0.dependency == 1 }
        #expect(edgeA?.invalidations == 1)
        #expect(edgeA?.depends == 1)
        #expect(invalid.edges.first { $0.dependency == 2 }?.depends == 2)
    }

    @Test func stoppedNodesAreNotAliveAndDropEdges() {
        var script = EventScript()
        script.create(1, .dependency, "a")
        script.create(2, .computation, "reader")
        script.run(2, first: true) { s in s.depend(2, 1) }
        script.emit(.nodeStopped(id: 2))
        let model = script.model()
        #expect(model.finalEdges.isEmpty)
        #expect(model.node(2)?.stoppedAt != nil)
        #expect(model.node(2)?.isAlive(at: script.time) == false)
    }

    @Test func nestedComputationsRecordParentsAndChildren() throws {
        let model = EventScript.nested().model()
        let outer = try #require(model.node(10))
        #expect(outer.children == [UInt64(11), 13])
        #expect(model.node(13)?.parent == 10)
        #expect(model.node(11)?.invalidations.byParent == 1)
    }

    @Test func actionsCountCallsAndTheRunsTheyCaused() throws {
        let model = EventScript.todos(adds: 3).model()
        let add = try #require(model.actions.first { $0.name == "addTodo(_:)" })
        #expect(add.count == 3)
        #expect(add.qualifiedName == "TodoStore.addTodo(_:)")
        #expect(add.firstArguments == "\"todo 0\"")
        // Each add reruns count, visibleTodos and list.
        #expect(add.runsCaused == 9)
        #expect(add.runsCausedByComputation[Todo.list] == 3)
        let filter = try #require(model.actions.first { $0.name == "setFilter(_:)" })
        #expect(filter.runsCaused == 1)
        #expect(filter.runsCausedByComputation[Todo.list] == nil)
    }

    @Test func countsEventsFlushesAndIssues() {
        var script = EventScript.todos(adds: 2)
        script.emit(.issue(kind: .runaway, node: Todo.list, message: "computation 'list' reran 10000 times"))
        let model = script.model()
        #expect(model.eventCount == script.events.count)
        #expect(model.eventsByKind[.actionBegan] == 3)
        #expect(model.flushes.count == 3)
        #expect(model.issueCounts[.runaway] == 1)
        #expect(model.issues.first?.message.contains("10000") == true)
        #expect(model.durationNanoseconds == script.events.last!.timestamp - script.events.first!.timestamp)
    }

    @Test func truncatedStreamsCountUnfinishedRuns() {
        var script = EventScript()
        script.create(1, .computation, "cut")
        script.emit(.rerunBegan(computation: 1, firstRun: true))
        let model = script.model()
        #expect(model.unfinishedRuns == 1)
        #expect(model.node(1)?.runs.runs == 1)
    }

    /// An unfinished flush is not a flush (docs/METRICS.md): `summary` counts it apart,
    /// as it counts unfinished runs.
    @Test func anUnfinishedFlushIsCountedApart() {
        var script = EventScript()
        script.create(1, .computation, "cut")
        script.flush { _ in }
        script.emit(.flushBegan)
        script.emit(.rerunBegan(computation: 1, firstRun: false))
        let model = script.model()
        #expect(model.flushes.count == 1)
        #expect(model.unfinishedFlushes == 1)
        let summary = SummaryReport(model: model)
        #expect(summary.flushes == 1)
        #expect(summary.unfinishedFlushes == 1)
        #expect(summary.text().contains("1 run and 1 flush had not finished when the trace ends"))
    }

    /// Unfinished runs last to their thread's last event, a time from the file: on a damaged
    /// one, two of them on two threads sum past `UInt64.max`, which saturates, not wraps.
    @Test func unfinishedRunsOfDamagedTimesSaturate() {
        var script = EventScript()
        script.create(1, .computation, "hog")
        script.emit(.rerunBegan(computation: 1, firstRun: true))
        script.thread = 1
        script.emit(.rerunBegan(computation: 1, firstRun: false))
        script.time = UInt64.max - 100
        script.name(1, "hog")
        script.thread = 0
        script.name(1, "hog")
        let model = script.model()
        #expect(model.unfinishedRuns == 2)
        let runs = model.node(1)?.runs
        #expect(runs?.totalNanoseconds == UInt64.max, "wrapped: \(runs?.totalNanoseconds ?? 0)")
        #expect(runs?.selfNanoseconds == UInt64.max)
    }

    /// A site may name a node the trace has not created (yet, in this file's
    /// order): the importer adds the node, as for any other reference.
    @Test func aSiteOfANodeNotYetSeenAddsIt() throws {
        var script = EventScript()
        script.emit(.site(node: 7, site: "App/View.swift:12", isActionCall: false))
        script.create(7, .computation, "list")
        let model = script.model()
        #expect(model.nodes.count == 1)
        #expect(model.node(7)?.site == "App/View.swift:12")
        #expect(model.node(7)?.name == "list")
    }
}

extension EventScript {
    /// An autorun `outer` (10) reading `x` (12) that creates `inner` (11);
    /// x changes, outer reruns and creates a new `inner` (13).
    static func nested() -> EventScript {
        var script = EventScript()
        script.create(20, .store, "Settings")
        script.create(12, .dependency, "x")
        script.create(10, .computation, "outer")
        script.run(10, first: true) { s in
            s.depend(10, 12)
            s.create(11, .computation, "inner", parent: 10)
            s.run(11, first: true, duration: 30)
        }
        script.action(20, "toggle()") { s in
            s.changed(12)
            s.invalidate(10, .dependency, 12)
            s.invalidate(11, .parent, 10)
            s.emit(.nodeStopped(id: 11), after: 0)
        }
        script.flush { s in
            s.run(10) { s in
                s.depend(10, 12)
                s.create(13, .computation, "inner", parent: 10)
                s.run(13, first: true, duration: 30)
            }
        }
        return script
    }
}
