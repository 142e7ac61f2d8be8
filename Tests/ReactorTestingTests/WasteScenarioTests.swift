import Testing
import ReactorCore
import ReactorInspector
import ReactorTesting
import ReactorTrace

/// A filter that is not `Equatable`: every write of it is a change, equal or not.
struct PlainFilter {
    var text: String
    var showsDone: Bool
}

/// The same filter, `Equatable`: an equal write is skipped.
struct EquatableFilter: Equatable {
    var text: String
    var showsDone: Bool
}

final class PlainFilterStore: Store {
    @Reactive var filter = PlainFilter(text: "all", showsDone: true)
    func setFilter(_ filter: PlainFilter) { action(filter) { self.filter = filter } }
}

final class EquatableFilterStore: Store {
    @Reactive var filter = EquatableFilter(text: "all", showsDone: true)
    @Reactive var count = 0
    func setFilter(_ filter: EquatableFilter) { action(filter) { self.filter = filter } }
    func setCount(_ count: Int) { action(count) { self.count = count } }
}

@Suite(.recordsScenarios) struct WasteScenarioTests {
    static let values = TraceRecorder.Options(values: .described(maxLength: 200))

    /// Ten writes of an equal non-`Equatable` filter, then one that changes it.
    func tenEqualWrites(options: TraceRecorder.Options = values) throws -> ScenarioTrace {
        try ScenarioTrace.record(options: options) {
            let reactor = Reactor()
            let store = PlainFilterStore(name: "filters", reactor: reactor)
            let label = reactor.autorun("filterLabel") { _ in _ = "\(store.filter.text) \(store.filter.showsDone)" }
            for _ in 0..<10 { store.setFilter(PlainFilter(text: "all", showsDone: true)) }
            store.setFilter(PlainFilter(text: "active", showsDone: false))
            label.stop()
        }
    }

    @Test func tenEqualWritesOfANonEquatableValueAreExactlyTheUnneededReruns() throws {
        let trace = try tenEqualWrites()
        #expect(trace.reruns(of: "filterLabel") == 11)
        let waste = trace.waste
        let entry = try #require(waste.entries(named: "filterLabel").first)
        #expect(entry.unneededReruns == 10)
        #expect(entry.reruns == 11)
        #expect(entry.undecidedReruns == 0)
        #expect(entry.unneededNanoseconds > 0)
        #expect(entry.writes.count == 1)
        let write = try #require(entry.writes.first)
        #expect(write.node == "PlainFilterStore.filter")
        #expect(write.kind == "property")
        #expect(write.action == "filters.setFilter(_:)")
        #expect(write.reruns == 10)
        // The action call's site: where setFilter(_:) calls action(_:).
        #expect(write.site == "ReactorTestingTests/WasteScenarioTests.swift:21")
        #expect(entry.fix.contains("Equatable"))
        #expect(waste.unneededReruns == 10)
        #expect(trace.unneededReruns(of: "filterLabel") == 10)
    }

    @Test func theBudgetRuleFailsOnUnneededRerunsAndNamesTheWrite() throws {
        let trace = try tenEqualWrites()
        let verdict = trace.unneededReruns(of: "filterLabel", atMost: 3)
        #expect(!verdict.passed)
        #expect(verdict.description == "filterLabel reran 10 times with nothing it read changed, budget 3")
        #expect(trace.unneededReruns(of: "filterLabel", atMost: 10).passed)
        let json = try trace.check(budgetJSON: #"{"computations": [{"match": "filter*", "maxUnneededReruns": 0}]}"#)
        #expect(!json.passed)
        let result = try #require(json.check.violations.first)
        #expect(result.rule == "computations[0].maxUnneededReruns")
        #expect(result.cause.first
                == "PlainFilterStore.filter written in filters.setFilter(_:) at ReactorTestingTests/WasteScenarioTests.swift:21: 10 unneeded")
    }

    @Test func anEquatableAppReportsNoUnneededReruns() throws {
        let trace = try ScenarioTrace.record(options: Self.values) {
            let reactor = Reactor()
            let store = EquatableFilterStore(name: "filters", reactor: reactor)
            let label = reactor.autorun("filterLabel") { _ in _ = "\(store.filter.text) \(store.count)" }
            for _ in 0..<10 { store.setFilter(EquatableFilter(text: "all", showsDone: true)) }
            for count in 1...5 { store.setCount(count) }
            store.setFilter(EquatableFilter(text: "active", showsDone: false))
            label.stop()
        }
        #expect(trace.reruns(of: "filterLabel") == 6)
        #expect(trace.waste.entries.isEmpty)
        #expect(trace.waste.unneededReruns == 0)
        #expect(trace.waste.undecidedReruns == 0)
        #expect(trace.unneededReruns(of: "filterLabel", atMost: 0).passed)
    }

    @Test func aComputedThatRecomputesAnEqualValueIsReportedApartEvenWithoutValues() throws {
        for options in [Self.values, TraceRecorder.Options()] {
            let trace = try ScenarioTrace.record(options: options) {
                let reactor = Reactor()
                let store = EquatableFilterStore(name: "counts", reactor: reactor)
                let isLarge = reactor.computed("isLarge") { store.count > 100 }
                let badge = reactor.autorun("badge") { _ in _ = isLarge.value }
                for count in 1...4 { store.setCount(count) }
                badge.stop()
            }
            let entry = try #require(trace.waste.entries(named: "isLarge").first)
            #expect(entry.equalResults == 4)
            #expect(entry.unneededReruns == 0)
            #expect(entry.fix.hasPrefix("split isLarge"))
            #expect(trace.reruns(of: "badge") == 0)
        }
    }

    @Test func withoutValuesNoRerunIsJudgedAndTheReportSaysSo() throws {
        let trace = try tenEqualWrites(options: TraceRecorder.Options())
        let waste = trace.waste
        #expect(!waste.hasValues)
        #expect(waste.unneededReruns == 0)
        #expect(waste.undecidedReruns == 11)
        #expect(waste.decidability.contains("without values"))
        #expect(waste.text().contains("cannot be decided"))
        let verdict = trace.unneededReruns(of: "filterLabel", atMost: 100)
        #expect(!verdict.passed)
        #expect(verdict.description.contains("without values"))
    }
}
