import ReactorCore
import ReactorTrace
import Testing
@testable import ReactorInspector

/// The cause of a rerun is the first invalidation since the computation's last
/// run: that one scheduled it (the runtime records at most one per rerun), and
/// every view — the model, `why`, the profile — charges the rerun to it.
@Suite struct RerunCauseTests {
    private static let store: UInt64 = 1, first: UInt64 = 2, second: UInt64 = 3, autorun: UInt64 = 4

    /// `show` reads two values; `setFirst` and then `setSecond` each write one
    /// before the flush that reruns it once.
    static func invalidatedTwiceBeforeItsRerun() -> EventScript {
        var script = EventScript()
        script.create(store, .store, "Store")
        script.create(first, .reactiveValue, "Store.first")
        script.create(second, .reactiveValue, "Store.second")
        script.create(autorun, .computation, "show")
        script.run(autorun, first: true) { s in
            s.depend(autorun, first)
            s.depend(autorun, second)
        }
        script.action(store, "setFirst(_:)", "1") { s in
            s.changed(first)
            s.invalidate(autorun, .dependency, first)
        }
        script.action(store, "setSecond(_:)", "2") { s in
            s.changed(second)
            s.invalidate(autorun, .dependency, second)
        }
        script.flush { s in
            s.run(autorun) { s in
                s.depend(autorun, first)
                s.depend(autorun, second)
            }
        }
        return script
    }

    @Test func theFirstInvalidationCausesTheRerun() throws {
        let script = Self.invalidatedTwiceBeforeItsRerun()

        let model = script.model()
        let caused = Dictionary(uniqueKeysWithValues: model.actions.map { ($0.qualifiedName, $0.runsCaused) })
        #expect(caused == ["Store.setFirst(_:)": 1, "Store.setSecond(_:)": 0])

        let why = try #require(script.model(TraceModelOptions(explaining: ["show"])).why("show"))
        let rerun = try #require(why.entries.first { $0.event == .rerun })
        #expect(rerun.chain == [
            .action(name: "Store.setFirst(_:)", arguments: "1"),
            .changed(name: "Store.first", kind: .reactiveValue),
            .invalidated(name: "show", kind: .computation, cause: .dependency),
            .ran(name: "show", kind: .computation, firstRun: false),
        ])

        let profile = TraceProfile.build(from: script.events)
        let reruns = Dictionary(uniqueKeysWithValues: profile.actions.map { ($0.qualifiedName, $0.rerunsCaused) })
        #expect(reruns == ["Store.setFirst(_:)": 1, "Store.setSecond(_:)": 0])
        let show = try #require(profile.computations.first { $0.name == "show" })
        #expect(show.latestRerunCause.first == "action Store.setFirst(_:) [1]")
    }

    /// A stop recorded after a pending invalidation says what stopped the
    /// computation, and leaves the pending cause alone.
    @Test func aStopAfterAnInvalidationIsExplainedByItsOwnCause() throws {
        var script = Self.invalidatedTwiceBeforeItsRerun()
        script.action(Self.store, "setFirst(_:)", "3") { s in
            s.changed(Self.first)
            s.invalidate(Self.autorun, .dependency, Self.first)
        }
        script.invalidate(Self.autorun, .stop)
        script.emit(.nodeStopped(id: Self.autorun))
        let why = try #require(script.model(TraceModelOptions(explaining: ["show"])).why("show"))
        let stop = try #require(why.entries.first { $0.event == .stopped })
        #expect(stop.chain == [.invalidated(name: "show", kind: .computation, cause: .stop)])
        #expect(why.stops == 1)
    }
}

/// A rerun with no invalidation recorded since the computation's last run
/// has an unknown cause (docs/METRICS.md, "Causes"): the runtime records one
/// before every rerun, so the trace does not hold it. What happens to be open
/// on the thread, here an action that flushes, is not its cause, and no view
/// charges it.
@Suite struct UnknownRerunCauseTests {
    private static let store: UInt64 = 1, value: UInt64 = 2, autorun: UInt64 = 3

    /// `show` reads `Store.value`; its second run comes inside `flushAll()`
    /// with no invalidation recorded before it (the recording began after it).
    static func rerunWithoutInvalidation() -> EventScript {
        var script = EventScript()
        script.create(store, .store, "Store")
        script.create(value, .reactiveValue, "Store.value")
        script.create(autorun, .computation, "show")
        script.run(autorun, first: true) { $0.depend(autorun, value) }
        script.action(store, "flushAll()") { s in
            s.flush { s in s.run(autorun) { $0.depend(autorun, value) } }
        }
        return script
    }

    @Test func noViewChargesTheOpenAction() throws {
        let script = Self.rerunWithoutInvalidation()

        let model = script.model()
        #expect(model.actions.map(\.runsCaused) == [0])

        let why = try #require(script.model(TraceModelOptions(explaining: ["show"])).why("show"))
        let rerun = try #require(why.entries.first { $0.event == .rerun })
        #expect(rerun.chain == [.unknown, .ran(name: "show", kind: .computation, firstRun: false)])

        let profile = TraceProfile.build(from: script.events)
        let action = try #require(profile.actions.first)
        #expect(action.rerunsCaused == 0)
        #expect(action.maxRerunsPerInvocation == 0)
        #expect(action.worstInvocationReruns.isEmpty)
        #expect(action.worstInvocationOrdinal == 0)
        let show = try #require(profile.computations.first { $0.name == "show" })
        #expect(show.latestRerunCause == [WhyStep.unknown.description, "autorun show reran"])
        #expect(show.slowestRerunCause == show.latestRerunCause)

        // check's per-call budget: the call caused no rerun.
        let budget = try Budget.parse(#"{"actions": [{"match": "Store.*", "maxRerunsPerAction": 0}]}"#)
        #expect(BudgetCheck(budget: budget, profile: profile).passed)
    }
}

/// Reruns are charged to the exact call at their chain's root, also when they
/// run after it returned, inside another action's flush.
@Suite struct ActionCallChargeTests {
    private static let store: UInt64 = 1, first: UInt64 = 2, second: UInt64 = 3
    private static let show: UInt64 = 4, count: UInt64 = 5

    @Test func theWorstCallIsTheCallWhoseWritesCausedTheReruns() throws {
        var script = EventScript()
        script.create(Self.store, .store, "Store")
        script.create(Self.first, .reactiveValue, "Store.first")
        script.create(Self.second, .reactiveValue, "Store.second")
        script.create(Self.show, .computation, "show")
        script.create(Self.count, .computation, "count")
        script.run(Self.show, first: true) { $0.depend(Self.show, Self.first) }
        script.run(Self.count, first: true) { $0.depend(Self.count, Self.second) }
        // Call 1 invalidates `show`; call 2 invalidates both; call 3 writes nothing.
        script.action(Self.store, "set(_:)", "1") { s in
            s.changed(Self.first)
            s.invalidate(Self.show, .dependency, Self.first)
        }
        script.action(Self.store, "set(_:)", "2") { s in
            s.changed(Self.first)
            s.changed(Self.second)
            s.invalidate(Self.count, .dependency, Self.second)
        }
        script.action(Self.store, "set(_:)", "3") { _ in }
        // Both rerun in another action's flush, after the calls returned.
        script.action(Self.store, "refresh()") { s in
            s.flush { s in
                s.run(Self.show) { $0.depend(Self.show, Self.first) }
                s.run(Self.count) { $0.depend(Self.count, Self.second) }
            }
        }
        script.action(Self.store, "set(_:)", "4") { s in
            s.changed(Self.first)
            s.invalidate(Self.show, .dependency, Self.first)
            s.changed(Self.second)
            s.invalidate(Self.count, .dependency, Self.second)
        }
        script.flush { s in
            s.run(Self.show) { $0.depend(Self.show, Self.first) }
            s.run(Self.count) { $0.depend(Self.count, Self.second) }
        }

        let profile = TraceProfile.build(from: script.events)
        let set = try #require(profile.actions.first { $0.name == "set(_:)" })
        #expect(set.invocations == 4)
        #expect(set.rerunsCaused == 4)
        #expect(set.maxRerunsPerInvocation == 2)
        #expect(set.worstInvocationArguments == "4")
        #expect(set.worstInvocationReruns == ["show", "count"])
        #expect(set.worstInvocationOrdinal == 4)
        let refresh = try #require(profile.actions.first { $0.name == "refresh()" })
        #expect(refresh.rerunsCaused == 0)
        #expect(refresh.maxRerunsPerInvocation == 0)
        // The model charges the same reruns per action.
        #expect(profile.model.actions.map(\.rerunsCaused) == [4, 0])
    }
}

/// One rule cuts long chains (docs/METRICS.md, "Causes"): the report's chains
/// and `why`'s keep the same steps, so a long chain shows the same root, gap
/// and newest steps in both.
@Suite struct CauseChainLengthTests {
    @Test func theReportAndWhyCutALongChainAlike() throws {
        let script = EventScript.pingPong(rounds: 40)
        let why = try #require(script.model(TraceModelOptions(explaining: ["pong"])).why("pong"))
        let chain = try #require(why.entries.last).chain
        let profile = TraceProfile.build(from: script.events)
        let pong = try #require(profile.computations.first { $0.name == "pong" })
        #expect(pong.latestRerunCause.count == chain.count)
        #expect(pong.latestRerunCause.first == "action Loop.start()")
        #expect(pong.latestRerunCause.firstIndex(of: "…") == chain.firstIndex { if case .elided = $0 { true } else { false } })
        #expect(pong.latestRerunCause.last == "autorun pong reran")
        #expect(chain.count <= CauseLink.maximumDepth)
    }
}
