import Testing
@testable import ReactorInspector

/// Node ids come from the file: the index's memory follows the ids inserted, not their values.
@Suite struct NodeIndexTests {
    @Test func aLargeIdCostsOneEntryNotATableThatLong() {
        var index = NodeIndex()
        index.insert(4_000_000, at: 0)
        index.insert(1, at: 1)
        #expect(index.tableSlots < 10_000)
        #expect(index.find(4_000_000) == 0)
        #expect(index.find(1) == 1)
        #expect(index.find(3_999_999) == nil)
    }

    @Test func idsTheTableGrowsOverMoveIntoIt() {
        var index = NodeIndex()
        // 9,000 is past the table at first (two slots an id, plus slack), then inside it.
        index.insert(9_000, at: 0)
        for id in 1...5_000 as ClosedRange<UInt64> { index.insert(id, at: Int32(id)) }
        #expect(index.tableSlots < 9_000)
        index.insert(8_500, at: 8_500)   // the table doubles past 9,000
        #expect(index.tableSlots > 9_000)
        #expect(index.find(8_500) == 8_500)
        #expect(index.find(9_000) == 0)
        for id in [1, 2_500, 5_000] as [UInt64] { #expect(index.find(id) == Int32(id)) }
        #expect(index.find(5_001) == nil && index.find(0) == nil)
    }
}
