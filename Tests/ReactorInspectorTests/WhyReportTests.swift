import ReactorCore
import ReactorTrace
import Testing
@testable import ReactorInspector

@Suite struct WhyReportTests {
    private func why(_ name: String, in script: EventScript, limit: Int = 50) throws -> WhyReport {
        let model = script.model(TraceModelOptions(explaining: [name], whyEntryLimit: limit))
        return try #require(model.why(name))
    }

    @Test func chainRunsFromActionThroughComputedToAutorun() throws {
        let report = try why("list", in: .todos(adds: 2))
        #expect(report.kind == .computation)
        #expect(report.firstRuns == 1)
        #expect(report.reruns == 2)
        let rerun = try #require(report.entries.first { $0.event == .rerun })
        #expect(rerun.chain == [
            .action(name: "TodoStore.addTodo(_:)", arguments: "\"todo 0\""),
            .changed(name: "TodoStore.todos", kind: .reactiveValue),
            .invalidated(name: "visibleTodos", kind: .computed, cause: .dependency),
            .ran(name: "visibleTodos", kind: .computed, firstRun: false),
            .changed(name: "visibleTodos", kind: .computed),
            .invalidated(name: "list", kind: .computation, cause: .dependency),
            .ran(name: "list", kind: .computation, firstRun: false),
        ])
        #expect(rerun.chain.chainDescription == "action TodoStore.addTodo(_:) \"todo 0\" → TodoStore.todos changed"
            + " → computed visibleTodos invalidated → computed visibleTodos recomputed to a new value"
            + " → autorun list invalidated → autorun list reran")
    }

    @Test func patternsGroupRunsWithoutArguments() throws {
        let report = try why("list", in: .todos(adds: 5))
        let top = try #require(report.patterns.first)
        #expect(top.count == 5)
        #expect(top.chain.first == .action(name: "TodoStore.addTodo(_:)", arguments: ""))
        #expect(report.patterns.count == 2)  // the reruns and the first run
        #expect(report.patterns.last?.chain == [.ran(name: "list", kind: .computation, firstRun: true)])
    }

    @Test func cutOffComputedExplainsItsOwnRerun() throws {
        let report = try why("visibleTodos", in: .todos(adds: 1))
        #expect(report.kind == .computed)
        #expect(report.reruns == 2)
        let last = try #require(report.entries.last)
        #expect(last.chain.first == .action(name: "TodoStore.setFilter(_:)", arguments: "all"))
        #expect(last.chain.contains(.changed(name: "TodoStore.filter", kind: .reactiveValue)))
    }

    @Test func firstRunOfComputedNamesTheRunThatReadIt() throws {
        let report = try why("visibleTodos", in: .todos(adds: 0))
        let first = try #require(report.entries.first)
        #expect(first.event == .firstRun)
        #expect(first.chain == [.ran(name: "list", kind: .computation, firstRun: true),
                                .ran(name: "visibleTodos", kind: .computed, firstRun: true)])
    }

    @Test func nestedComputationIsRecreatedByItsParentsRerun() throws {
        let report = try why("inner", in: .nested())
        #expect(report.instances == [11, 13])
        #expect(report.firstRuns == 2)
        #expect(report.stops == 1)
        let stop = try #require(report.entries.first { $0.event == .stopped })
        #expect(stop.chain == [
            .action(name: "Settings.toggle()", arguments: ""),
            .changed(name: "x", kind: .dependency),
            .invalidated(name: "outer", kind: .computation, cause: .dependency),
            .invalidated(name: "inner", kind: .computation, cause: .parent),
        ])
        let recreated = try #require(report.entries.last)
        #expect(recreated.node == 13)
        #expect(recreated.chain == [
            .action(name: "Settings.toggle()", arguments: ""),
            .changed(name: "x", kind: .dependency),
            .invalidated(name: "outer", kind: .computation, cause: .dependency),
            .ran(name: "outer", kind: .computation, firstRun: false),
            .ran(name: "inner", kind: .computation, firstRun: true),
        ])
    }

    @Test func explicitInvalidationInsideAnActionAndAtTopLevel() throws {
        var script = EventScript()
        script.create(1, .store, "Clock")
        script.create(2, .computation, "ticker")
        script.run(2, first: true)
        script.action(1, "tick()") { s in s.invalidate(2, .explicit) }
        script.flush { s in s.run(2) }
        script.invalidate(2, .explicit)
        script.flush { s in s.run(2) }
        let report = try why("ticker", in: script)
        #expect(report.reruns == 2)
        let reruns = report.entries.filter { $0.event == .rerun }
        #expect(reruns[0].chain == [.action(name: "Clock.tick()", arguments: ""),
                                    .invalidated(name: "ticker", kind: .computation, cause: .explicit),
                                    .ran(name: "ticker", kind: .computation, firstRun: false)])
        #expect(reruns[1].chain == [.invalidated(name: "ticker", kind: .computation, cause: .explicit),
                                    .ran(name: "ticker", kind: .computation, firstRun: false)])
    }

    @Test func rerunWithoutRecordedCauseSaysSo() throws {
        var script = EventScript()
        script.create(1, .computation, "orphan")
        script.run(1)
        let report = try why("orphan", in: script)
        #expect(report.entries.first?.chain == [.unknown, .ran(name: "orphan", kind: .computation, firstRun: false)])
    }

    @Test func entriesAreLimitedButAllRunsCounted() throws {
        let report = try why("list", in: .todos(adds: 6), limit: 2)
        #expect(report.entries.count == 2)
        #expect(report.omittedEntries == 5)
        #expect(report.patterns.reduce(0) { $0 + $1.count } == 7)
    }

    @Test func limitZeroListsNoRunButCountsAndGroupsThemAll() throws {
        let report = try why("list", in: .todos(adds: 3), limit: 0)
        #expect(report.entries.isEmpty)
        #expect(report.omittedEntries == 4)
        #expect(report.patterns.reduce(0) { $0 + $1.count } == 4)
        let text = report.text()
        #expect(!text.contains("first run  "))
        #expect(text.contains("4 more (use --limit N to list more)"))
    }

    @Test func stopsSayWhatStoppedThem() throws {
        var script = EventScript()
        script.create(1, .computation, "outer")
        script.run(1, first: true) { s in
            s.create(2, .computation, "worker", parent: 1)
            s.run(2, first: true)
        }
        script.invalidate(2, .parent, 1)
        for (id, cause) in [(3, InvalidationCause.stop), (4, .runaway), (5, .error)] {
            script.create(UInt64(id), .computation, "worker")
            script.run(UInt64(id), first: true)
            script.invalidate(UInt64(id), cause)
        }
        let report = try why("worker", in: script)
        #expect(report.stops == 4)
        #expect(report.stopsByCause == ["parent": 1, "stop": 1, "runaway": 1, "error": 1])
        #expect(report.entries.filter { $0.event == .stopped }.map(\.stopCause) == [.parent, .stop, .runaway, .error])
        let text = report.text()
        #expect(text.contains("4 stops (1 with its parent's rerun, 1 by stop(), 1 as a runaway, 1 by an error)"))
        #expect(text.contains("autorun worker stopped as a runaway"))
        #expect(!text.contains("by its parent"))
        let json = try JSONText.encode(report)
        #expect(json.contains("\"stopCause\" : \"runaway\""))
    }

    @Test func unknownNameYieldsAnEmptyReport() throws {
        let report = try why("nothing", in: .todos())
        #expect(report.isUnknown)
        #expect(report.text().contains("No computation named 'nothing'"))
    }

    @Test func veryLongChainsKeepTheirRootAndElideTheMiddle() throws {
        let script = EventScript.pingPong(rounds: 40)
        let report = try why("pong", in: script)
        let last = try #require(report.entries.last)
        #expect(last.chain.first == .action(name: "Loop.start()", arguments: ""))
        #expect(last.chain.contains { if case .elided = $0 { true } else { false } })
        #expect(last.chain.count <= CauseLink.maximumDepth + 2)
    }

    @Test func textShowsPatternsAndEachRun() throws {
        let text = try why("list", in: .todos(adds: 2)).text()
        #expect(text.contains("autorun list: 3 runs, 2 reruns"))
        #expect(text.contains("2×  action TodoStore.addTodo(_:) → TodoStore.todos changed"))
        #expect(text.contains("autorun list reran"))
    }
}
