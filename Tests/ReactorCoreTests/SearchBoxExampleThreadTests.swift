import ReactorCore
import Testing

/// The README's search box: text property → debounce → distinctUntilChanged
/// → flatMapLatest → bound result, on a manual clock.
@Suite struct SearchBoxExampleThreadTests {
    final class SearchModel {
        let query = ReactiveProperty(initialValue: "", name: "SearchModel.query")
        let results = ReactiveProperty<[String]>(initialValue: [], name: "SearchModel.results")
    }

    /// A search service: each search is a signal that answers once; it counts the searches made.
    final class Catalog: @unchecked Sendable {
        // @unchecked Sendable: `searches` is only touched by deliveries, which hold the graph lock.
        let titles = ["Swift", "Swift Testing", "SwiftUI", "Rust"]
        var searches: [String] = []

        func search(_ text: String) -> Signal<[String]> {
            Signal(name: "catalog.search") { observer in
                self.searches.append(text)
                observer.send(self.titles.filter { $0.lowercased().hasPrefix(text.lowercased()) })
                observer.sendCompleted()
                return nil
            }
        }
    }

    @Test func typingSearchesOnceThePauseComesAndBindsTheResults() async {
        let clock = ManualClock()
        let catalog = Catalog()
        let model = SearchModel()
        let searching = model.query.asStream()
            .debounce(for: .milliseconds(300), clock: clock)
            .distinctUntilChanged()
            .flatMapLatest { text in catalog.search(text) }
            .bind(to: model.results)
        let shown = EventProbe<[String]>()
        let showing = shown.subscribe(model.results.asStream().skip(1))

        await clock.waitUntilSleeping()      // the initial "" waits too
        for text in ["s", "sw", "swi", "swift"] {
            model.query.value = text
            clock.advance(by: .milliseconds(100))
        }
        #expect(shown.received.isEmpty)      // still typing: nothing searched yet
        clock.advance(by: .milliseconds(200))
        #expect(await shown.next() == .value(["Swift", "Swift Testing", "SwiftUI"]))
        #expect(catalog.searches == ["swift"])

        // "swif" then back to "swift" within the pause: the same query, no new search.
        model.query.value = "swif"
        model.query.value = "swift"
        await clock.waitUntilSleeping()
        clock.advance(by: .milliseconds(300))
        model.query.value = "r"
        await clock.waitUntilSleeping()
        clock.advance(by: .milliseconds(300))
        #expect(await shown.next() == .value(["Rust"]))
        #expect(catalog.searches == ["swift", "r"])
        #expect(model.results.value == ["Rust"])
        searching.cancel()
        showing.cancel()
    }
}
