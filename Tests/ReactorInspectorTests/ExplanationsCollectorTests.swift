@testable import ReactorInspector
import ReactorTraceFormat
import Testing

/// Every computation's explanations in one pass (``ExplanationsCollector``): chains kept by
/// shape in one table, and a bound on that table.
@Suite struct ExplanationsCollectorTests {
    /// A rerun of the computation at position 0 (named `list`, as the one at 100) caused by a change of the node at `source`.
    static func rerun(after source: Int32) -> CauseLink {
        let changed = CauseLink.make(.changed(node: source, values: nil), after: nil)
        let invalidated = CauseLink.make(.invalidated(node: 0, cause: .dependency), after: changed)
        return CauseLink.make(.ran(node: 0, firstRun: false), after: invalidated)
    }

    /// A rerun of the computation at `node` caused by a change of the node at `source`.
    static func rerun(of node: Int32, after source: Int32) -> CauseLink {
        let changed = CauseLink.make(.changed(node: source, values: nil), after: nil)
        let invalidated = CauseLink.make(.invalidated(node: node, cause: .dependency), after: changed)
        return CauseLink.make(.ran(node: node, firstRun: false), after: invalidated)
    }

    static let computation = TraceNode(id: 7, kind: .computation, givenName: "list")

    static func section(_ collector: ExplanationsCollector, computations: [TraceNode] = [computation]) -> AllExplanations {
        AllExplanations(collector: collector, computations: computations,
                        node: { $0 == 0 || $0 == 100 ? ("list", .computation) : ("source\($0)", .reactiveProperty) },
                        actionName: { "action\($0)" })
    }

    static let instances = [computation, TraceNode(id: 8, kind: .computation, givenName: "list")]

    /// Chains of the same steps share one shape, whatever their links; a step after a
    /// shared prefix adds one shape; each run counts for the name and for the `#id`.
    @Test func chainsOfTheSameStepsShareOneShape() throws {
        let collector = ExplanationsCollector(limit: 1)
        collector.match(0, name: "list", id: 7)
        for source: Int32 in [1, 1, 2] { collector.record(.rerun, node: 0, id: 7, at: 10, link: Self.rerun(after: source)) }
        // changed(1) → invalidated → ran, and changed(2) → invalidated → ran: six steps, no two alike.
        #expect(collector.shapes.count == 6)
        #expect(collector.targetNames == ["list", "#7"])
        for target in collector.collected() {
            let target = try #require(target)
            #expect(target.reruns == 3)
            #expect(target.entries.count == 1)
            #expect(target.omitted == 2)
            #expect(target.patterns.values.map(\.count).sorted() == [1, 2])
        }
        let report = try #require(try AllExplanations.decode(Self.section(collector).bytes, target: "#7"))
        #expect(report.patterns.map(\.count) == [2, 1])
        #expect(report.patterns.first?.chain.chainDescription
                == "source1 changed → autorun list invalidated → autorun list reran")
        #expect(try Self.section(collector).targets() == ["list", "#7"])
    }

    /// Past its bound of shapes the collector stops and keeps no explanation, so that memory
    /// stays bounded; the section it leaves answers nothing (`why` is then a pass of its own).
    @Test func pastItsShapeLimitItKeepsNothing() throws {
        let collector = ExplanationsCollector(limit: 20, shapeLimit: CauseLink.maximumDepth + 8)
        collector.match(0, name: "list", id: 7)
        for source: Int32 in 1...3 { collector.record(.rerun, node: 0, id: 7, at: 10, link: Self.rerun(after: source)) }
        #expect(!collector.overflowed)
        #expect(try AllExplanations.decode(Self.section(collector).bytes, target: "list")?.reruns == 3)
        collector.record(.rerun, node: 0, id: 7, at: 11, link: Self.rerun(after: 4))
        #expect(collector.overflowed)
        #expect(collector.shapes.isEmpty)
        let section = Self.section(collector)
        #expect(try section.targets().isEmpty)
        #expect(try AllExplanations.decode(section.bytes, target: "list") == nil)
    }

    /// Each run is counted once, for its node; a name that several nodes have gets their runs
    /// merged in pass order: its first runs listed, per shape the sum of their counts.
    @Test func runsOfInstancesOfOneNameAreMergedInPassOrder() throws {
        let collector = ExplanationsCollector(limit: 3)
        collector.match(0, name: "list", id: 7)
        collector.match(100, name: "list", id: 8)
        for time: UInt64 in 1...5 {
            let node: Int32 = time % 2 == 1 ? 0 : 100
            collector.record(.rerun, node: node, id: node == 0 ? 7 : 8, at: time, link: Self.rerun(of: node, after: 10 + node))
        }
        let section = Self.section(collector, computations: Self.instances)
        let list = try #require(try AllExplanations.decode(section.bytes, target: "list"))
        #expect(list.entries.map(\.timestamp) == [1, 2, 3])
        #expect(list.entries.map(\.node) == [7, 8, 7])
        #expect(list.reruns == 5)
        #expect(list.omittedEntries == 2)
        #expect(list.patterns.map(\.count) == [3, 2])
        let first = try #require(try AllExplanations.decode(section.bytes, target: "#7"))
        #expect(first.entries.map(\.timestamp) == [1, 3, 5])
        #expect(first.omittedEntries == 0)
        #expect(first.patterns.map(\.count) == [3])
        let second = try #require(try AllExplanations.decode(section.bytes, target: "#8"))
        #expect(second.entries.map(\.timestamp) == [2, 4])
        #expect(second.patterns.map(\.count) == [2])
    }

    /// A shape's remembered child and pattern never stand for another's: a parent whose children
    /// alternate keeps one shape per child, and a node renamed between runs of the same shape
    /// counts its later runs in its new slot (a shape's pattern is per slot).
    @Test func rememberedChildrenAndPatternsFollowTheirSlot() throws {
        let collector = ExplanationsCollector(limit: 5)
        collector.match(0, name: "list", id: 7)
        collector.match(100, name: "list", id: 8)
        // changed(1) is the parent of both invalidations: its child met last alternates.
        for node: Int32 in [0, 100, 0, 100] {
            collector.record(.rerun, node: node, id: node == 0 ? 7 : 8, at: 1, link: Self.rerun(of: node, after: 1))
        }
        #expect(collector.shapes.count == 5)
        collector.match(0, name: "renamed", id: 7)
        collector.record(.rerun, node: 0, id: 7, at: 2, link: Self.rerun(of: 0, after: 1))
        #expect(collector.shapes.count == 5)
        let computations = [TraceNode(id: 7, kind: .computation, givenName: "renamed"), Self.instances[1]]
        let section = Self.section(collector, computations: computations)
        let renamed = try #require(try AllExplanations.decode(section.bytes, target: "renamed"))
        #expect(renamed.reruns == 1)
        #expect(renamed.patterns.map(\.count) == [1])
        let first = try #require(try AllExplanations.decode(section.bytes, target: "#7"))
        #expect(first.reruns == 3)
        #expect(first.patterns.map(\.count) == [3])
        let list = try #require(try AllExplanations.decode(section.bytes, target: "list"))
        // Its runs still count for the name it had (as a pass explaining it matched it then).
        #expect(list.reruns == 5)
        #expect(list.patterns.map(\.count) == [3, 2])
    }

    /// A name whose nodes each met more shapes than a pass groups is left out (which of their
    /// shapes came first is not kept): `why` of it is a pass; each node's `#id` is kept.
    @Test func aNameWhoseNodesEachOverflowTheirPatternsIsLeftOut() throws {
        let collector = ExplanationsCollector(limit: 1)
        collector.match(0, name: "list", id: 7)
        collector.match(100, name: "list", id: 8)
        for source in 200..<Int32(200 + WhyCollector.maximumPatterns + 1) {
            for node: Int32 in [0, 100] {
                collector.record(.rerun, node: node, id: node == 0 ? 7 : 8, at: UInt64(source), link: Self.rerun(of: node, after: source))
            }
        }
        let section = Self.section(collector, computations: Self.instances)
        #expect(try section.targets() == ["#7", "#8"])
        #expect(try AllExplanations.decode(section.bytes, target: "list") == nil)
        let first = try #require(try AllExplanations.decode(section.bytes, target: "#7"))
        #expect(first.patterns.count == WhyCollector.maximumPatterns)
        #expect(first.ungroupedEntries == 1)
    }

    /// The table the collector looks shapes and patterns up in finds every pair it was given,
    /// across its growth, and no other.
    @Test func wordPairTableFindsWhatItHolds() {
        var table = WordPairTable()
        for value in 0..<5_000 { table.insert(UInt32(value % 70), UInt64(value / 70) << 56, value: Int32(value)) }
        #expect(table.count == 5_000)
        for value in 0..<5_000 { #expect(table.value(UInt32(value % 70), UInt64(value / 70) << 56) == Int32(value)) }
        #expect(table.value(70, 0) == nil)
        #expect(table.value(0, 1) == nil)
    }
}
