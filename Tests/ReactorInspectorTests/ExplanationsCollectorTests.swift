@testable import ReactorInspector
import ReactorTraceFormat
import Testing

/// Every computation's explanations in one pass (``ExplanationsCollector``): chains kept by
/// shape in one table, and a bound on that table.
@Suite struct ExplanationsCollectorTests {
    /// A rerun of the computation at position 0 caused by a change of the node at `source`.
    static func rerun(after source: Int32) -> CauseLink {
        let changed = CauseLink.make(.changed(node: source, values: nil), after: nil)
        let invalidated = CauseLink.make(.invalidated(node: 0, cause: .dependency), after: changed)
        return CauseLink.make(.ran(node: 0, firstRun: false), after: invalidated)
    }

    static let computation = TraceNode(id: 7, kind: .computation, givenName: "list")

    static func section(_ collector: ExplanationsCollector) -> AllExplanations {
        AllExplanations(collector: collector, computations: [computation],
                        node: { $0 == 0 ? ("list", .computation) : ("source\($0)", .reactiveProperty) },
                        actionName: { "action\($0)" })
    }

    /// Chains of the same steps share one shape, whatever their links; a step after a
    /// shared prefix adds one shape; each run counts for the name and for the `#id`.
    @Test func chainsOfTheSameStepsShareOneShape() throws {
        let collector = ExplanationsCollector(limit: 1)
        collector.match(0, name: "list", id: 7)
        for source: Int32 in [1, 1, 2] { collector.record(.rerun, node: 0, id: 7, at: 10, link: Self.rerun(after: source)) }
        // changed(1) → invalidated → ran, and changed(2) → invalidated → ran: six steps, no two alike.
        #expect(collector.shapes.count == 6)
        #expect(collector.targetNames == ["list", "#7"])
        for target in collector.targets {
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
}
