import Testing
import ReactorCore
import ReactorTrace
@testable import ReactorInspector

@Suite struct TraceProfileTests {
    @Test func countsRerunsAndTimesPerComputation() throws {
        let profile = TraceProfile.build(from: TraceScript.todos(count: 3, listNanoseconds: 200_000))
        let list = try #require(profile.computations.first { $0.name == "TodoList.list" })
        #expect(list.kind == "autorun")
        #expect(list.runs == 4)
        #expect(list.reruns == 3)
        #expect(list.totalRerunNanoseconds == 600_000)
        #expect(list.maxRerunNanoseconds == 200_000)
        let visible = try #require(profile.computations.first { $0.name == "visibleTodos" })
        #expect(visible.kind == "computed")
        #expect(visible.reruns == 3)
        #expect(visible.maxRerunNanoseconds == 50_000)
    }

    @Test func followsTheCausalChainFromTheAction() throws {
        let profile = TraceProfile.build(from: TraceScript.todos(count: 2))
        let list = try #require(profile.computations.first { $0.name == "TodoList.list" })
        #expect(list.latestRerunCause == [
            "action TodoStore.addTodo(_:) [\"item 1\"]",
            "TodoStore.todos changed",
            "computed visibleTodos invalidated",
            "computed visibleTodos reran",
            "visibleTodos.value changed",
            "autorun TodoList.list invalidated",
            "autorun TodoList.list reran",
        ])
    }

    @Test func chargesRerunsToTheActionInvocation() throws {
        let profile = TraceProfile.build(from: TraceScript.todos(count: 4))
        let action = try #require(profile.actions.first)
        #expect(action.qualifiedName == "TodoStore.addTodo(_:)")
        #expect(action.invocations == 4)
        #expect(action.rerunsCaused == 12)            // visibleTodos, list, footer each time
        #expect(action.maxRerunsPerInvocation == 3)
        #expect(action.worstInvocationArguments == "\"item 0\"")
    }

    @Test func measuresFlushesAndKeepsATimeline() {
        let profile = TraceProfile.build(from: TraceScript.todos(count: 2, listNanoseconds: 1_000_000))
        #expect(profile.flushes.count == 2)
        // 10 + 50_000 + 10 + 1_000_000 + 10 + 30_000 + 10 from flush begin to end
        #expect(profile.flushes.maxNanoseconds == 1_080_040)
        #expect(profile.flushes.slowestFlushReruns.first?.name == "TodoList.list")
        #expect(profile.timeline.filter { $0.kind == .flush }.count == 2)
        #expect(profile.timeline.filter { $0.kind == .action }.map(\.reruns) == [3, 3])
        #expect(profile.rerunHistogram.count == 6)
    }

    /// The runtime flushes when the outermost action returns: the flush comes
    /// after the action's end, and the timeline's action still counts the
    /// reruns charged to it, as the actions' figures do.
    @Test func anActionsSpanCountsTheRerunsOfTheFlushAfterIt() throws {
        var events: [TraceEvent] = []
        for event in TraceScript.todos(count: 2) {
            if case .actionEnded = event.record { continue }
            if case .flushBegan = event.record, let last = events.last {
                events.append(TraceEvent(timestamp: last.timestamp, thread: event.thread,
                                         record: .actionEnded(store: TraceScript.store)))
            }
            events.append(event)
        }
        let profile = TraceProfile.build(from: events)
        let action = try #require(profile.actions.first)
        #expect(action.rerunsCaused == 6)
        let spans = profile.timeline.filter { $0.kind == .action }
        #expect(spans.map(\.reruns) == [3, 3])
        #expect(spans.map(\.reruns).reduce(0, +) == action.rerunsCaused)
        // The flushes come after the actions' ends.
        let flushes = profile.timeline.filter { $0.kind == .flush }
        #expect(zip(spans, flushes).allSatisfy { $0.end <= $1.start })
    }

    @Test func groupsComputationsByName() throws {
        var script = TraceScript()
        for id in UInt64(10)...12 {
            script.add(.nodeCreated(id: id, kind: .computation, name: "Row.body", parent: 0))
            script.add(.rerunBegan(computation: id, firstRun: true))
            script.add(.rerunEnded(computation: id), advance: 5)
            script.add(.invalidated(computation: id, cause: .explicit, source: 0))
            script.add(.rerunBegan(computation: id, firstRun: false))
            script.add(.rerunEnded(computation: id), advance: id * 100)
        }
        let profile = TraceProfile.build(from: script.events)
        let row = try #require(profile.computations.first)
        #expect(row.instances == 3)
        #expect(row.reruns == 3)
        #expect(row.totalRerunNanoseconds == 3_300)
        #expect(row.maxRerunNanoseconds == 1_200)
        #expect(row.slowestRerunCause == ["autorun Row.body invalidated explicitly", "autorun Row.body reran"])
    }

    @Test func runawayChainsStayBounded() throws {
        var script = TraceScript()
        script.add(.nodeCreated(id: 1, kind: .computation, name: "loop", parent: 0))
        script.add(.nodeCreated(id: 2, kind: .dependency, name: "x", parent: 0))
        script.add(.rerunBegan(computation: 1, firstRun: true))
        script.add(.rerunEnded(computation: 1), advance: 1)
        for _ in 0..<1_000 {
            script.add(.rerunBegan(computation: 1, firstRun: false))
            script.add(.changed(dependency: 2))
            script.add(.invalidated(computation: 1, cause: .dependency, source: 2))
            script.add(.rerunEnded(computation: 1), advance: 1)
        }
        script.add(.issue(kind: .runaway, node: 1, message: "stopped after 1000 reruns"))
        let profile = TraceProfile.build(from: script.events)
        let loop = try #require(profile.computations.first)
        #expect(loop.reruns == 1_000)
        #expect(loop.latestRerunCause.count <= CauseLink.maximumDepth)
        #expect(loop.latestRerunCause.contains("…"))
        #expect(profile.issues(of: .runaway).count == 1)
        #expect(profile.issues(of: .runaway).firstNode == "loop")
    }

    @Test func nestedComputationsInvalidatedByTheirParent() throws {
        var script = TraceScript()
        script.add(.nodeCreated(id: 1, kind: .computation, name: "outer", parent: 0))
        script.add(.nodeCreated(id: 2, kind: .computation, name: "inner", parent: 1))
        script.add(.nodeCreated(id: 3, kind: .dependency, name: "flag", parent: 0))
        script.add(.actionBegan(store: 0, name: "toggle", arguments: ""))
        script.add(.changed(dependency: 3))
        script.add(.invalidated(computation: 1, cause: .dependency, source: 3))
        script.add(.invalidated(computation: 2, cause: .parent, source: 1))
        script.add(.rerunBegan(computation: 2, firstRun: false))
        script.add(.rerunEnded(computation: 2), advance: 7)
        script.add(.actionEnded(store: 0))
        let profile = TraceProfile.build(from: script.events)
        let inner = try #require(profile.computations.first { $0.name == "inner" })
        #expect(inner.latestRerunCause == ["action toggle", "flag changed", "autorun outer invalidated",
                                          "autorun inner invalidated (its parent reran)", "autorun inner reran"])
        #expect(profile.actions.first?.qualifiedName == "toggle")
    }

    /// The runtime announces a computed's new value after its rerun ended and
    /// after the action returned (the flush runs after the action): the change
    /// still continues the action's chain.
    @Test func computedChangedAfterItsRerunStaysInTheActionsChain() throws {
        var script = TraceScript()
        script.add(.nodeCreated(id: 1, kind: .store, name: "TodoStore", parent: 0))
        script.add(.nodeCreated(id: 2, kind: .reactiveValue, name: "TodoStore.todos", parent: 1))
        script.add(.nodeCreated(id: 3, kind: .computed, name: "remainingCount", parent: 0))
        script.add(.nodeCreated(id: 4, kind: .computation, name: "countLabel", parent: 0))
        script.add(.actionBegan(store: 1, name: "addTodo(_:)", arguments: "\"milk\""))
        script.add(.changed(dependency: 2))
        script.add(.invalidated(computation: 3, cause: .dependency, source: 2))
        script.add(.actionEnded(store: 1), advance: 5)
        script.add(.flushBegan)
        script.add(.rerunBegan(computation: 3, firstRun: false))
        script.add(.rerunEnded(computation: 3), advance: 5)
        script.add(.changed(dependency: 3))
        script.add(.invalidated(computation: 4, cause: .dependency, source: 3))
        script.add(.rerunBegan(computation: 4, firstRun: false))
        script.add(.rerunEnded(computation: 4), advance: 5)
        script.add(.flushEnded)
        let profile = TraceProfile.build(from: script.events)
        #expect(profile.actions.first?.rerunsCaused == 2)
        let label = try #require(profile.computations.first { $0.name == "countLabel" })
        #expect(label.latestRerunCause == [
            "action TodoStore.addTodo(_:) [\"milk\"]", "TodoStore.todos changed", "computed remainingCount invalidated",
            "computed remainingCount reran", "remainingCount changed", "autorun countLabel invalidated", "autorun countLabel reran",
        ])
    }

    @Test func truncatedTraceKeepsWhatItHas() {
        var events = TraceScript.todos(count: 2)
        events.removeLast(5)   // cut inside the second flush
        let profile = TraceProfile.build(from: events)
        #expect(profile.flushes.count == 1)
        #expect(profile.computations.first { $0.name == "TodoList.list" }?.reruns == 2)
    }
}
