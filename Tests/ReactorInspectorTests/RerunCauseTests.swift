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
