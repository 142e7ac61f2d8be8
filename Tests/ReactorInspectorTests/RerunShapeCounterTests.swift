import Testing
@testable import ReactorInspector

/// The shape ids and per-computation counts behind the profile's dominant rerun chain.
@Suite struct RerunShapeCounterTests {
    static func chain(_ steps: [CauseLink.Step]) -> CauseLink {
        var link: CauseLink?
        for step in steps { link = CauseLink.make(step, after: link) }
        return link!
    }

    @Test func chainsThatDidTheSameHaveOneShapeWhateverTheirValues() {
        var counter = RerunShapeCounter()
        let first = Self.chain([.changed(node: 3, values: nil), .invalidated(node: 0, cause: .dependency)])
        let second = Self.chain([.changed(node: 3, values: WhyValueChange(previous: "1", value: "2")),
                                 .invalidated(node: 0, cause: .dependency)])
        #expect(counter.shape(of: first) == counter.shape(of: second))
    }

    @Test func aDifferentStepLengthOrGapMakesAnotherShape() {
        var counter = RerunShapeCounter()
        let base = counter.shape(of: Self.chain([.changed(node: 3, values: nil), .invalidated(node: 0, cause: .dependency)]))
        let otherSource = counter.shape(of: Self.chain([.changed(node: 4, values: nil), .invalidated(node: 0, cause: .dependency)]))
        let otherCause = counter.shape(of: Self.chain([.changed(node: 3, values: nil), .invalidated(node: 0, cause: .explicit)]))
        let longer = counter.shape(of: Self.chain([.unknown, .changed(node: 3, values: nil), .invalidated(node: 0, cause: .dependency)]))
        let shorter = counter.shape(of: Self.chain([.invalidated(node: 0, cause: .dependency)]))
        let gap2 = counter.shape(of: Self.chain([.unknown, .elided(count: 2), .invalidated(node: 0, cause: .dependency)]))
        let gap5 = counter.shape(of: Self.chain([.unknown, .elided(count: 5), .invalidated(node: 0, cause: .dependency)]))
        #expect(Set([base, otherSource, otherCause, longer, shorter, gap2, gap5]).count == 7)
    }

    @Test func rerunsOfTwoComputationsAfterTheSameStepsAreCountedApart() {
        var counter = RerunShapeCounter()
        let first = counter.shape(of: Self.chain([.changed(node: 3, values: nil), .invalidated(node: 0, cause: .dependency),
                                                  .ran(node: 0, firstRun: false)]))
        let second = counter.shape(of: Self.chain([.changed(node: 3, values: nil), .invalidated(node: 0, cause: .dependency),
                                                   .ran(node: 1, firstRun: false)]))
        #expect(first != second)
        #expect(counter.countRerun(following: first) == 1)
        #expect(counter.countRerun(following: first) == 2)
        #expect(counter.countRerun(following: second) == 1)
        #expect(counter.counts[Int(first)] == 2)
    }
}
