import ReactorCore
import ReactorTrace
import Testing
@testable import ReactorInspector

/// A chain's root is its first step: an action called inside a run or inside
/// another action continues that chain, so it is charged only when the chain
/// starts at it. The model's roots, `why`'s chains and the profile agree.
@Suite struct ActionRootTests {
    private static let store: UInt64 = 1, items: UInt64 = 2, input: UInt64 = 3
    private static let list: UInt64 = 4, helper: UInt64 = 5

    /// `list` reads `Store.items`; `helper` reads `input`. `body` writes
    /// `items` somehow, then a flush reruns `list`.
    static func script(_ body: (inout EventScript) -> Void) -> EventScript {
        var script = EventScript()
        script.create(store, .store, "Store")
        script.create(items, .reactiveValue, "Store.items")
        script.create(input, .reactiveValue, "input")
        script.create(list, .computation, "list")
        script.create(helper, .computation, "helper")
        script.run(list, first: true) { $0.depend(list, items) }
        body(&script)
        script.flush { $0.run(list) { $0.depend(list, items) } }
        return script
    }

    static func writeItems(_ s: inout EventScript) {
        s.changed(items)
        s.invalidate(list, .dependency, items)
    }

    private struct Causes: Equatable {
        var model: [String: Int]
        var profile: [String: Int]
        var whyRoot: String
    }

    private func causes(of script: EventScript) throws -> Causes {
        let model = script.model()
        let why = try #require(script.model(TraceModelOptions(explaining: ["list"])).why("list"))
        let rerun = try #require(why.entries.first { $0.event == .rerun })
        let profile = TraceProfile.build(from: script.events)
        return Causes(
            model: Dictionary(uniqueKeysWithValues: model.actions.map { ($0.qualifiedName, $0.rerunsCaused) }),
            profile: Dictionary(uniqueKeysWithValues: profile.actions.map { ($0.qualifiedName, $0.rerunsCaused) }),
            whyRoot: try #require(rerun.chain.first).description)
    }

    /// An action a computation's first run calls belongs to that run, whose chain has no action root.
    @Test func anActionInsideAFirstRunIsNotARoot() throws {
        let script = Self.script { s in
            s.run(Self.helper, first: true) { s in
                s.depend(Self.helper, Self.input)
                s.action(Self.store, "load()") { Self.writeItems(&$0) }
            }
        }
        let causes = try causes(of: script)
        #expect(causes.model == ["Store.load()": 0])
        #expect(causes.profile == ["Store.load()": 0])
        #expect(!causes.whyRoot.hasPrefix("action"))
        // The report's chain is why's: it starts at the first run, not at the action.
        let list = try #require(TraceProfile.build(from: script.events).computations.first { $0.name == "list" })
        #expect(list.latestRerunCause == ["autorun helper ran (first run)", "action Store.load()", "Store.items changed",
                                          "autorun list invalidated", "autorun list reran"])
    }

    /// An action called by a rerun whose cause is a write outside any action has no root either.
    @Test func anActionInsideARerunWithoutRootIsNotARoot() throws {
        let script = Self.script { s in
            s.run(Self.helper, first: true) { $0.depend(Self.helper, Self.input) }
            s.changed(Self.input)
            s.invalidate(Self.helper, .dependency, Self.input)
            s.flush { s in
                s.run(Self.helper) { s in
                    s.depend(Self.helper, Self.input)
                    s.action(Self.store, "apply()") { Self.writeItems(&$0) }
                }
            }
        }
        let causes = try causes(of: script)
        #expect(causes.model == ["Store.apply()": 0])
        #expect(causes.profile == ["Store.apply()": 0])
        #expect(!causes.whyRoot.hasPrefix("action"))
        let list = try #require(TraceProfile.build(from: script.events).computations.first { $0.name == "list" })
        #expect(list.latestRerunCause == ["input changed", "autorun helper invalidated", "autorun helper reran",
                                          "action Store.apply()", "Store.items changed", "autorun list invalidated",
                                          "autorun list reran"])
    }

    /// An action called inside another action is the outer call's work.
    @Test func aNestedActionChargesTheOuterCall() throws {
        let script = Self.script { s in
            s.action(Self.store, "outer()") { s in
                s.action(Self.store, "inner()") { Self.writeItems(&$0) }
            }
        }
        let causes = try causes(of: script)
        #expect(causes.model == ["Store.outer()": 1, "Store.inner()": 0])
        #expect(causes.profile == ["Store.outer()": 1, "Store.inner()": 0])
        #expect(causes.whyRoot.hasPrefix("action Store.outer()"))
        let profile = TraceProfile.build(from: script.events)
        let outer = try #require(profile.actions.first { $0.qualifiedName == "Store.outer()" })
        #expect(outer.maxRerunsPerInvocation == 1)
        #expect(outer.worstInvocationReruns == ["list"])
        #expect(outer.worstInvocationOrdinal == 1)
        let inner = try #require(profile.actions.first { $0.qualifiedName == "Store.inner()" })
        #expect(inner.maxRerunsPerInvocation == 0)
        #expect(inner.worstInvocationOrdinal == 0)
    }
}
