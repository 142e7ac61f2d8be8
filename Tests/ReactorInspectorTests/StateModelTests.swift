import Foundation
import ReactorCore
import ReactorTrace
@testable import ReactorInspector

import Testing

/// The model as of a moment (`TraceModelOptions.until`), each node's value, the
/// value history of one node, and `action:N`'s moment.
@Suite struct StateModelTests {
    /// A node's name is its final name at every moment: an `@Reactive` created before the
    /// moment and named on first access after it keeps that name in the state, and a filter
    /// on that name (in any case) finds it.
    @Test func aNodeNamedAfterTheMomentHasItsFinalNameThen() throws {
        let events: [TraceEvent] = [
            .init(timestamp: 1, thread: 0, record: .nodeCreated(id: 1, kind: .store, name: "CartStore", parent: 0)),
            .init(timestamp: 2, thread: 0, record: .nodeCreated(id: 4, kind: .reactiveValue, name: "", parent: 0)),
            .init(timestamp: 2, thread: 0, record: .value(node: 4, value: "[]")),
            .init(timestamp: 20, thread: 0, record: .flushBegan),
            .init(timestamp: 20, thread: 0, record: .nodeNamed(id: 4, name: "CartStore.items", owner: 1)),
            .init(timestamp: 21, thread: 0, record: .flushEnded),
        ]
        let model = TraceModel(events: events, options: TraceModelOptions(snapshotAt: 10, until: 10, tracksValues: true))
        let whole = TraceModel(events: events, options: TraceModelOptions(tracksValues: true))
        #expect(model.node(4)?.name == whole.node(4)?.name)
        #expect(model.node(4)?.name == "CartStore.items")
        let report = StateReport(model: model, moment: ResolvedMoment(moment: .time(10), timestamp: 10, action: nil),
                                 filter: "cartstore")
        #expect(report.entries.map(\.name) == ["CartStore", "CartStore.items"])
    }

    /// A store with `filter` (named after its first value), a computed
    /// `visible` over it and an autorun `list` over the computed; three
    /// `setFilter` actions, each followed by its flush.
    static func script() -> EventScript {
        var script = EventScript()
        script.create(Todo.store, .store, "TodoStore")
        script.create(Todo.filter, .reactiveValue, "")
        script.emit(.value(node: Todo.filter, value: "all"), after: 0)
        script.create(Todo.visible, .computed, "visible")
        script.create(Todo.list, .computation, "list")
        script.run(Todo.visible, first: true) { s in
            s.name(Todo.filter, "TodoStore.filter", owner: Todo.store)
            s.depend(Todo.visible, Todo.filter)
        }
        script.emit(.value(node: Todo.visible, value: "3 items"), after: 0)
        script.run(Todo.list, first: true) { $0.depend(Todo.list, Todo.visible) }
        for (filter, visible) in [("active", "2 items"), ("completed", "1 item"), ("all", "3 items")] {
            script.action(Todo.store, "setFilter(_:)", filter) { s in
                s.emit(.value(node: Todo.filter, value: filter), after: 0)
                s.changed(Todo.filter)
                s.invalidate(Todo.visible, .dependency, Todo.filter)
            }
            script.flush { s in
                s.run(Todo.visible) { $0.depend(Todo.visible, Todo.filter) }
                s.emit(.value(node: Todo.visible, value: visible), after: 0)
                s.changed(Todo.visible)
                s.invalidate(Todo.list, .dependency, Todo.visible)
                s.run(Todo.list) { $0.depend(Todo.list, Todo.visible) }
            }
        }
        return script
    }

    static func actionEnd(_ ordinal: Int, of events: [TraceEvent]) -> Result<ActionEnd, TraceMomentError> {
        let importer = TraceModelBuilder(options: TraceModelOptions(untilAction: ordinal))
        for event in events { importer.consume(event) }
        return importer.actionMoment!
    }

    @Test func aModelUntilAMomentHasThatMomentsValuesCountsAndEdges() throws {
        let script = Self.script()
        let second = try Self.actionEnd(2, of: script.events).get()
        #expect(second.name == "setFilter(_:)")
        let model = script.model(TraceModelOptions(until: second.ended, tracksValues: true))
        #expect(model.node(Todo.filter)?.value == "completed")
        #expect(model.node(Todo.visible)?.value == "1 item")
        #expect(model.node(Todo.list)?.value == nil)
        // First runs plus two reruns each, not the third action's.
        #expect(model.node(Todo.list)?.runs.runs == 3)
        #expect(model.node(Todo.filter)?.changes == 2)
        #expect(model.finalEdges.contains(TraceEdgeKey(computation: Todo.list, dependency: Todo.visible)))
        #expect(model.hasValues)
        #expect(model.latestTimestampRead == script.events.last?.timestamp)

        let whole = script.model(TraceModelOptions(tracksValues: true))
        #expect(whole.node(Todo.filter)?.value == "all")
        #expect(whole.node(Todo.list)?.runs.runs == 4)
    }

    @Test func theFlushAnActionsEndRanBelongsToItsMoment() throws {
        let script = Self.script()
        let first = try Self.actionEnd(1, of: script.events).get()
        let actionEnded = script.events.first { if case .actionEnded = $0.record { true } else { false } }!
        #expect(first.ended > actionEnded.timestamp)
        let model = script.model(TraceModelOptions(until: first.ended, tracksValues: true))
        // The computed recomputed in that flush, and the autorun re-read it.
        #expect(model.node(Todo.visible)?.value == "2 items")
        #expect(model.finalEdges.contains(TraceEdgeKey(computation: Todo.list, dependency: Todo.visible)))
    }

    /// `action:N` in one pass: the importer finds the action's moment as it
    /// reads and builds the same model as a pass up to that moment.
    @Test func aModelUntilAnActionIsTheModelUntilItsMoment() throws {
        let script = Self.script()
        for ordinal in 1...3 {
            let importer = TraceModelBuilder(options: TraceModelOptions(untilAction: ordinal, tracksValues: true))
            for event in script.events { importer.consume(event) }
            let model = importer.finish()
            let end = try #require(try importer.actionMoment?.get())
            let reference = script.model(TraceModelOptions(snapshotAt: end.ended, until: end.ended, tracksValues: true))
            #expect(model.nodes.map(\.value) == reference.nodes.map(\.value), "action:\(ordinal)")
            #expect(model.nodes.map(\.runs) == reference.nodes.map(\.runs), "action:\(ordinal)")
            #expect(model.nodes.map(\.changes) == reference.nodes.map(\.changes), "action:\(ordinal)")
            #expect(model.finalEdges == reference.finalEdges, "action:\(ordinal)")
            #expect(model.snapshot == reference.snapshot, "action:\(ordinal)")
            #expect(model.snapshot?.timestamp == end.ended, "action:\(ordinal)")
            #expect(model.latestTimestampRead == script.events.last?.timestamp)
        }
        let first = script.model(TraceModelOptions(untilAction: 1, tracksValues: true))
        #expect(first.node(Todo.filter)?.value == "active")
        #expect(first.node(Todo.visible)?.value == "2 items")
    }

    /// Another thread's chunk, later in time than the action's end, is read
    /// before that end: the model at `action:N` leaves it out all the same
    /// (a second pass up to the moment), as for the moment's time.
    @Test func anotherThreadsLaterEventsReadBeforeTheActionsEndAreNotApplied() throws {
        let events: [TraceEvent] = [
            .init(timestamp: 1, thread: 0, record: .nodeCreated(id: 1, kind: .store, name: "S", parent: 0)),
            .init(timestamp: 2, thread: 0, record: .nodeCreated(id: 2, kind: .reactiveValue, name: "S.x", parent: 1)),
            .init(timestamp: 2, thread: 0, record: .value(node: 2, value: "0")),
            // Thread 1's chunk comes first in the file; it wrote long after the action.
            .init(timestamp: 50, thread: 1, record: .value(node: 2, value: "late")),
            .init(timestamp: 50, thread: 1, record: .changed(dependency: 2)),
            .init(timestamp: 10, thread: 0, record: .actionBegan(store: 1, name: "set(_:)", arguments: "1")),
            .init(timestamp: 10, thread: 0, record: .value(node: 2, value: "1")),
            .init(timestamp: 10, thread: 0, record: .changed(dependency: 2)),
            .init(timestamp: 12, thread: 0, record: .actionEnded(store: 1)),
            .init(timestamp: 13, thread: 0, record: .changed(dependency: 2)),
        ]
        var passes = 0
        let (model, resolved, _) = try TraceFile.model(at: .afterAction(1), options: TraceModelOptions(tracksValues: true)) {
            builder throws(StateError) in
            passes += 1
            for event in events { builder.consume(event) }
            return (builder.finish(), ())
        }
        #expect(resolved.timestamp == 12)
        #expect(resolved.action == ActionEnd(store: 1, name: "set(_:)", began: 10, ended: 12))
        #expect(model.node(2)?.value == "1")
        #expect(model.node(2)?.changes == 1)
        #expect(model.lastTimestamp == 12)
        #expect(model.latestTimestampRead == 50)
        #expect(passes == 2)
        let reference = TraceModel(events: events, options: TraceModelOptions(snapshotAt: 12, until: 12, tracksValues: true))
        #expect(model.nodes.map(\.value) == reference.nodes.map(\.value))
        #expect(model.nodes.map(\.changes) == reference.nodes.map(\.changes))
        #expect(model.snapshot == reference.snapshot)

        // One thread, or no later event read early: one pass, as before.
        passes = 0
        let script = Self.script()
        _ = try TraceFile.model(at: .afterAction(2), options: TraceModelOptions(tracksValues: true)) {
            builder throws(StateError) in
            passes += 1
            for event in script.events { builder.consume(event) }
            return (builder.finish(), ())
        }
        #expect(passes == 1)
    }

    /// A trace that ends inside the flush an action's end ran: the moment is where it ends.
    @Test func anActionWhoseFlushIsCutEndsWhereTheTraceDoes() throws {
        let full = Self.script().events
        // Up to the first action's flush, cut after the computed's new value.
        let flushBegan = try #require(full.firstIndex { if case .flushBegan = $0.record { true } else { false } })
        let cut = Array(full[...(flushBegan + 4)])
        let importer = TraceModelBuilder(options: TraceModelOptions(untilAction: 1, tracksValues: true))
        for event in cut { importer.consume(event) }
        let model = importer.finish()
        let end = try #require(try importer.actionMoment?.get())
        #expect(end.ended == cut.last?.timestamp)
        #expect(model.node(Todo.visible)?.value == "2 items")
        let importer2 = TraceModelBuilder(options: TraceModelOptions(untilAction: 2))
        for event in cut { importer2.consume(event) }
        #expect(importer2.actionMoment == .failure(.beyondActions(requested: 2, actions: 1)))
    }

    @Test func valuesAreNotTrackedUnlessAsked() {
        let model = Self.script().model()
        #expect(model.node(Todo.filter)?.value == nil)
        #expect(model.hasValues)
    }

    @Test func historyListsEveryValueWithTheActionThatSetIt() {
        let model = Self.script().model(TraceModelOptions(valueHistoryOf: "TodoStore.filter"))
        #expect(model.valueHistory.map(\.value) == ["all", "active", "completed", "all"])
        #expect(model.valueHistory.map(\.previous) == [nil, "all", "active", "completed"])
        #expect(model.valueHistory.map(\.action) == [nil] + Array(repeating: "TodoStore.setFilter(_:)", count: 3))
    }

    @Test func aComputedsValueIsSetByTheActionWhoseWriteMadeItRecompute() {
        let model = Self.script().model(TraceModelOptions(valueHistoryOf: "visible"))
        #expect(model.valueHistory.map(\.value) == ["3 items", "2 items", "1 item", "3 items"])
        #expect(model.valueHistory.map(\.action) == [nil] + Array(repeating: "TodoStore.setFilter(_:)", count: 3))
    }

    @Test func theLatestValueWinsWhenThreadsInterleaveOutOfTimeOrder() {
        let events: [TraceEvent] = [
            .init(timestamp: 1, thread: 0, record: .nodeCreated(id: 1, kind: .reactiveValue, name: "x", parent: 0)),
            .init(timestamp: 30, thread: 0, record: .value(node: 1, value: "late")),
            .init(timestamp: 20, thread: 1, record: .value(node: 1, value: "early")),
        ]
        let model = TraceModel(events: events, options: TraceModelOptions(valueHistoryOf: "x"))
        #expect(model.node(1)?.value == "late")
        #expect(model.valueHistory.map(\.value) == ["early", "late"])
        #expect(model.valueHistory.map(\.previous) == [nil, "early"])
    }

    @Test func valuesAfterTheMomentStillSayTheTraceHasValues() {
        var script = EventScript()
        script.create(1, .reactiveValue, "x")
        let moment = script.time
        script.emit(.value(node: 1, value: "1"))
        let model = script.model(TraceModelOptions(until: moment, tracksValues: true))
        #expect(model.hasValues)
        #expect(model.node(1)?.value == nil)
        #expect(model.latestTimestampRead == script.time)
    }

    /// The importer's numbering, `top`'s and the report's: outermost actions
    /// in the order their beginnings are read, whatever their threads' clocks say.
    @Test func actionsCountOutermostInTheOrderTheirBeginningsAreRead() throws {
        var events: [TraceEvent] = [
            .init(timestamp: 1, thread: 0, record: .nodeCreated(id: 1, kind: .store, name: "S", parent: 0)),
        ]
        // Thread 1's chunk comes first in the file but its action began later.
        events += [
            .init(timestamp: 50, thread: 1, record: .actionBegan(store: 1, name: "late(_:)", arguments: "")),
            .init(timestamp: 60, thread: 1, record: .actionEnded(store: 1)),
        ]
        events += [
            .init(timestamp: 10, thread: 0, record: .actionBegan(store: 1, name: "outer()", arguments: "")),
            .init(timestamp: 11, thread: 0, record: .actionBegan(store: 1, name: "inner()", arguments: "")),
            .init(timestamp: 12, thread: 0, record: .actionEnded(store: 1)),
            .init(timestamp: 13, thread: 0, record: .actionEnded(store: 1)),
            .init(timestamp: 14, thread: 0, record: .changed(dependency: 1)),
        ]
        #expect(try Self.actionEnd(1, of: events).get() == ActionEnd(store: 1, name: "late(_:)", began: 50, ended: 60))
        #expect(try Self.actionEnd(2, of: events).get() == ActionEnd(store: 1, name: "outer()", began: 10, ended: 13))
        #expect(Self.actionEnd(3, of: events) == .failure(.beyondActions(requested: 3, actions: 2)))
    }

    @Test func whyShowsTheValuesEachChangeWentBetween() throws {
        let model = Self.script().model(TraceModelOptions(explaining: ["list"]))
        let report = try #require(model.why("list"))
        let chains = report.entries.map(\.chain.chainDescription)
        #expect(chains.count == 4)
        #expect(chains[1] == "action TodoStore.setFilter(_:) active → TodoStore.filter changed: all → active"
            + " → computed visible invalidated → computed visible recomputed to a new value: 3 items → 2 items"
            + " → autorun list invalidated → autorun list reran")
        #expect(chains[3].contains("TodoStore.filter changed: completed → all"))
        // Grouped by shape, values left out: one pattern for the three reruns.
        #expect(report.patterns.first?.count == 3)
        #expect(report.patterns.first?.chain.chainDescription.contains("→ all") == false)
    }

    @Test func hostileValuesAreEscapedInEveryMedium() throws {
        let hostile = "\u{1B}]0;owned\u{07}<script>&\"\nnext\u{202E}"
        var script = EventScript()
        script.create(1, .store, "S")
        script.create(2, .reactiveValue, "S.x")
        script.emit(.value(node: 2, value: "0"), after: 0)
        script.create(3, .computation, "reader")
        script.run(3, first: true) { $0.depend(3, 2) }
        script.action(1, "set(_:)") { s in
            s.emit(.value(node: 2, value: hostile), after: 0)
            s.changed(2)
            s.invalidate(3, .dependency, 2)
        }
        script.flush { $0.run(3) { $0.depend(3, 2) } }
        let model = script.model(TraceModelOptions(snapshotAt: script.time, until: script.time, valueHistoryOf: "S.x"))
        let moment = ResolvedMoment(moment: .time(script.time), timestamp: script.time, action: nil)
        let state = StateReport(model: model, moment: moment).text(style: .ansi, tracePath: "t.trace")
        let history = try ValueHistoryReport(model: model, name: "S.x", path: "t.trace").text(style: .ansi)
        for text in [state, history] {
            #expect(text.contains("\\u{1B}]0;owned\\u{7}"))
            #expect(!text.contains("\u{07}") && !text.contains("\u{202E}") && !text.contains("\nnext"))
        }
        let timeline = ActionTimeline()
        for event in script.events { timeline.record(event) }
        timeline.finish()
        #expect(timeline.steps.count == 1)
        #expect(timeline.steps.first?.changes.first?.after == hostile)
        let html = ProfileReport(profile: TraceProfile(), traceName: "t", actionTimeline: timeline).html()
        #expect(html.contains("&lt;script&gt;&amp;&quot;"))
        #expect(!html.contains("<script>") && !html.contains("\u{1B}") && !html.contains("\u{202E}"))
        let dot = try GraphRenderer.render(model: model, options: GraphOptions(selection: .all, at: script.time),
                                           format: .dot, title: "t").output
        #expect(dot.contains("&lt;script&gt;") || dot.contains("<script>&amp;"))
        #expect(!dot.contains("\u{1B}") && !dot.contains("\u{202E}"))
        let svg = try GraphRenderer.render(model: model, options: GraphOptions(selection: .all, at: script.time),
                                           format: .svg, title: "t").output
        #expect(!svg.contains("<script>"))
        #expect(!svg.contains("\u{1B}"))
    }

    @Test func momentsParse() {
        #expect(TraceMoment.parse("action:3") == .success(.afterAction(3)))
        #expect(TraceMoment.parse("1.5ms") == .success(.time(1_500_000)))
        #expect(TraceMoment.parse("action:0") == .failure(.actionZero))
        #expect(TraceMoment.parse("action:-1") == .failure(.malformed("action:-1")))
        #expect(TraceMoment.parse("action:") == .failure(.malformed("action:")))
        #expect(TraceMoment.parse("yesterday") == .failure(.malformed("yesterday")))
    }

    @Test func stateJSONGivesNullForAValueNeverCaptured() throws {
        let script = Self.script()
        let moment = ResolvedMoment(moment: .time(script.time), timestamp: script.time, action: nil)
        let report = StateReport(model: script.model(TraceModelOptions(tracksValues: true)), moment: moment)
        let objects = try #require(try JSONSerialization.jsonObject(with: Data(try JSONText.encode(report.entries).utf8))
            as? [[String: Any]])
        let list = try #require(objects.first { $0["name"] as? String == "list" })
        #expect(list["value"] is NSNull)
        #expect(list["dependencies"] as? [String] == ["visible"])
        let filter = try #require(objects.first { $0["name"] as? String == "TodoStore.filter" })
        #expect(filter["value"] as? String == "all")
        #expect(filter["kind"] as? String == "property")
        #expect(report.text(tracePath: "t.trace").contains("TodoStore.filter  all"))
        let filtered = StateReport(model: script.model(TraceModelOptions(tracksValues: true)), moment: moment,
                                   filter: "TodoStore.")
        #expect(filtered.entries.map(\.name) == ["TodoStore.filter"])
    }
}
