import Testing
@testable import ReactorInspector

/// Counts in words: "1 run", "2 runs", and the line that ends a list cut short.
@Suite struct CountTextTests {
    @Test func oneIsSingularAndTheRestPlural() {
        #expect(CountText.of(1, "run") == "1 run")
        #expect(CountText.of(0, "run") == "0 runs")
        #expect(CountText.of(2, "issue") == "2 issues")
        #expect(CountText.of(1, "flush", plural: "flushes") == "1 flush")
        #expect(CountText.of(3, "flush", plural: "flushes") == "3 flushes")
    }

    @Test func aCutListSaysHowManyMore() {
        #expect(CountText.more(shown: 5, of: 8) == "… 3 more (--top N)")
        #expect(CountText.more(shown: 8, of: 8) == nil)
        #expect(CountText.more(shown: 2, of: 3, flag: "--limit N") == "… 1 more (--limit N)")
    }
}
