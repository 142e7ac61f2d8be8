import ReactorTrace
import Testing
@testable import ReactorInspector

/// One long name or value takes its own row's room, not every row's: the
/// tables of `hot` and `history` pad columns to at most ``TextColumns/maximumWidth``.
@Suite struct ColumnWidthTests {
    static let long = String(repeating: "x", count: 4_000)

    @Test func oneLongValueDoesNotWidenEveryHistoryLine() throws {
        var script = EventScript()
        script.create(1, .store, "S")
        script.create(2, .reactiveValue, "S.x")
        for round in 0..<100 {
            script.action(1, "set(_:)") { s in
                s.emit(.value(node: 2, value: round == 50 ? Self.long : "\(round)"), after: 0)
                s.changed(2)
            }
        }
        let model = script.model(TraceModelOptions(valueHistoryOf: "S.x"))
        let lines = try ValueHistoryReport(model: model, name: "S.x", path: "t.trace").text().split(separator: "\n")
        #expect(lines.count == 101)
        let longLines = lines.filter { $0.contains(Self.long) }
        // The long value is shown whole, on the two lines that hold it (as the new value, then as the old one).
        #expect(longLines.count == 2)
        for line in lines.dropFirst() where !line.contains(Self.long) {
            #expect(line.count < 2 + 12 + 2 + TextColumns.maximumWidth + 2 + 20, "\(line.count) characters")
        }
        // The short lines still line up with each other: the action column starts at the same place.
        let columns = Set(lines.dropFirst().filter { !$0.contains(Self.long) }.compactMap { $0.range(of: "S.set(_:)")?.lowerBound.utf16Offset(in: $0) })
        #expect(columns.count == 1)
    }

    @Test func oneLongNameDoesNotWidenEveryHotRow() {
        var script = EventScript()
        for (id, name) in [(1 as UInt64, Self.long), (2, "short"), (3, "other")] {
            script.create(id, .computation, name)
            script.run(id, first: true)
            script.run(id)
        }
        let lines = HotReport(model: script.model(), top: 10).text().split(separator: "\n")
        let rows = lines.filter { $0.contains("short") || $0.contains("other") }
        #expect(rows.count == 2)
        for row in rows { #expect(row.count < 200, "\(row.count) characters") }
        #expect(lines.contains { $0.contains(Self.long) })
    }
}
