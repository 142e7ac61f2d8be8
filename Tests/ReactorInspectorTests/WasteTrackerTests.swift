import Testing
@testable import ReactorInspector

/// A run's reads as the waste judgement compares them: one per dependency, its first, in node order.
@Suite struct WasteTrackerTests {
    typealias Read = WasteTracker.Read

    @Test func aRunsReadsKeepTheFirstOfEachDependencyInNodeOrder() {
        var reads = [Read(node: 5, value: "a"), Read(node: 2, value: "b"), Read(node: 5, value: "c"),
                     Read(node: 9, value: nil), Read(node: 2, value: "d")]
        WasteTracker.normalize(&reads)
        #expect(reads == [Read(node: 2, value: "b"), Read(node: 5, value: "a"), Read(node: 9, value: nil)])
    }

    @Test func manyReadsAreKeptTheSameWay() {
        var reads = (0..<40).map { Read(node: Int32(39 - $0 % 20), value: "\($0)") }
        WasteTracker.normalize(&reads)
        #expect(reads == (20..<40).map { Read(node: Int32($0), value: "\(39 - $0)") })
    }

    @Test func aRunThatReadTheSameValuesIsUnneeded() {
        let before = [Read(node: 1, value: "x"), Read(node: 2, value: "y")]
        #expect(WasteTracker.judge(before, against: before) == .unneeded)
        #expect(WasteTracker.judge([Read(node: 1, value: "x"), Read(node: 2, value: "z")], against: before) == .needed)
        #expect(WasteTracker.judge([Read(node: 1, value: "x")], against: before) == .needed)
        #expect(WasteTracker.judge([Read(node: 1, value: "x"), Read(node: 2, value: nil)], against: before) == .undecided)
        #expect(WasteTracker.judge(before, against: nil) == .undecided)
    }
}
