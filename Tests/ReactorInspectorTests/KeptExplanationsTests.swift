import ReactorCore
import ReactorTrace
import Testing
@testable import ReactorInspector

/// The explanations an index keeps (``KeptExplanations``) answer as the pass that
/// built them, for every target (a name, an `#id`, a name a node had before it was
/// renamed, a name no computation has) and every shorter `--limit`; the section
/// stays within its budget, and refuses damaged bytes without crashing.
@Suite struct KeptExplanationsTests {
    static let store: UInt64 = 1, value: UInt64 = 2, renamed: UInt64 = 3, nested: UInt64 = 4, referred: UInt64 = 5
    static let parent: UInt64 = 6, other: UInt64 = 7

    /// A computation renamed after it ran (its old name is another's), nested ones sharing a
    /// name, one the trace only refers to, and stops.
    static func renamesAndNesting() -> EventScript {
        var script = EventScript()
        script.create(store, .store, "Store")
        script.create(value, .reactiveValue, "Store.value")
        script.create(renamed, .computation, "show")
        script.create(other, .computation, "")
        script.run(renamed, first: true) { $0.depend(renamed, value) }
        script.create(parent, .computation, "parent")
        script.run(parent, first: true) { s in
            s.create(nested, .computation, "child")
            s.run(nested, first: true) { $0.depend(nested, value) }
            s.depend(parent, value)
        }
        for round in 0..<4 {
            script.action(store, "set(_:)", "\(round)") { s in
                s.changed(value)
                s.invalidate(renamed, .dependency, value)
                s.invalidate(parent, .dependency, value)
                s.invalidate(referred, .dependency, value)
            }
            if round == 1 { script.name(renamed, "shown") }
            if round == 2 { script.name(other, "show") }
            script.flush { s in
                s.run(renamed) { $0.depend(renamed, value) }
                s.invalidate(nested + UInt64(round) * 10, .parent, parent)
                s.run(parent) { s in
                    let child = nested + UInt64(round + 1) * 10
                    s.create(child, .computation, "child")
                    s.run(child, first: true) { $0.depend(child, value) }
                    s.depend(parent, value)
                }
                s.run(referred)
                s.run(other, first: round == 2)
            }
        }
        script.invalidate(renamed, .stop)
        return script
    }

    static let scripts: [(String, EventScript)] = [
        ("renames", renamesAndNesting()), ("todos", .todos(adds: 7)), ("ping-pong", .pingPong(rounds: 40)),
    ]

    /// Every name any node had, every `#id`, and names no computation has.
    static func targets(of script: EventScript) -> [String] {
        var targets: Set<String> = ["nothing", "#999999"]
        for event in script.events {
            switch event.record {
            case let .nodeCreated(id, _, name, _): targets.formUnion([name, "#\(id)"])
            case let .nodeNamed(id, name, _): targets.formUnion([name, "#\(id)"])
            default: break
            }
        }
        for node in script.model().nodes { targets.insert(node.name) }
        return targets.sorted()
    }

    static func section(_ script: EventScript, targets: [String], limit: Int, budget: Int = 1 << 30) -> KeptExplanations {
        var kept = KeptExplanations.none
        for target in targets {
            guard let report = script.model(TraceModelOptions(explaining: [target], whyEntryLimit: limit)).why(target),
                  !report.isUnknown else { continue }
            kept = kept.adding(report, limit: limit, budget: budget)
        }
        return kept
    }

    @Test(arguments: scripts.map(\.0))
    func keptExplanationsAnswerAsThePass(script name: String) throws {
        let script = try #require(Self.scripts.first { $0.0 == name }).1
        let plain = script.model()
        let targets = Self.targets(of: script)
        let read = try KeptExplanations(decoding: Self.section(script, targets: targets, limit: 20).bytes)
        for target in targets {
            for limit in [0, 1, 3, 20, 21] {
                let alone = try #require(script.model(TraceModelOptions(explaining: [target], whyEntryLimit: limit))
                    .why(target))
                let kept = try read.report(for: target, limit: limit, model: plain)
                if alone.isUnknown {
                    #expect(kept?.isUnknown == true, "\(target)")
                } else if limit > 20 && alone.omittedEntries + alone.entries.count > 20 {
                    // More runs one by one than the pass that kept it listed: not from the index.
                    #expect(kept == nil, "\(target) --limit \(limit)")
                } else {
                    #expect(kept == alone, "\(target) --limit \(limit)")
                }
            }
        }
        // A target not kept: the index cannot say.
        let computation = plain.nodes.first { $0.isComputation }
        let known = try #require(computation)
        #expect(try KeptExplanations.none.report(for: known.name, limit: 20, model: plain) == nil)
    }

    @Test func theOldestExplanationsMakeRoom() throws {
        let script = EventScript.pingPong(rounds: 40)
        let plain = script.model()
        let budget = Self.section(script, targets: ["pong"], limit: 50).bytes.count + 10
        #expect(Self.section(script, targets: ["ping", "pong"], limit: 50).bytes.count > budget)
        let both = Self.section(script, targets: ["ping", "pong"], limit: 50, budget: budget)
        #expect(both.targets == ["pong"])
        let again = Self.section(script, targets: ["ping", "pong", "ping"], limit: 50)
        #expect(again.targets == ["pong", "ping"])
        #expect(try again.report(for: "ping", limit: 50, model: plain)
                == script.model(TraceModelOptions(explaining: ["ping"], whyEntryLimit: 50)).why("ping"))
        // One larger than the whole budget is not kept.
        #expect(Self.section(script, targets: ["ping"], limit: 50, budget: 10).targets.isEmpty)
    }

    /// Cut or changed bytes give an error or some explanation, never a crash or a huge allocation.
    @Test func damagedSectionsAreRefused() throws {
        let script = Self.renamesAndNesting()
        let plain = script.model()
        let targets = Self.targets(of: script)
        let bytes = Self.section(script, targets: targets, limit: 50).bytes
        for cut in 0..<bytes.count {
            #expect(throws: TraceIndexError.self) { try KeptExplanations(decoding: Array(bytes.prefix(cut))) }
        }
        let report = try #require(script.model(TraceModelOptions(explaining: ["show"])).why("show"))
        let blob = KeptExplanations.encode(report)
        #expect(try KeptExplanations.decode(blob, target: "show") == report.withoutDescription)
        for cut in 0..<blob.count {
            #expect(throws: TraceIndexError.self) { try KeptExplanations.decode(Array(blob.prefix(cut)), target: "show") }
        }
        for position in bytes.indices {
            for flip: UInt8 in [0x01, 0x80, 0xFF] {
                var damaged = bytes
                damaged[position] ^= flip
                guard let read = try? KeptExplanations(decoding: damaged) else { continue }
                for target in targets { _ = try? read.report(for: target, limit: 50, model: plain) }
            }
        }
    }
}

extension WhyReport {
    /// The report without what the model says about its computations (kind, instances, site).
    var withoutDescription: WhyReport {
        var report = self
        report.describe([])
        return report
    }
}
