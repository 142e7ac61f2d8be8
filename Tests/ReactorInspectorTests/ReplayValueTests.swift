import ReactorCore
import ReactorInspector
import ReactorTrace
import Testing

/// `replay` on a trace recorded with values: first values on their own line,
/// later ones as old → new on the write's `changed` line.
@Suite struct ReplayValueTests {
    static let events: [TraceEvent] = [
        .init(timestamp: 1, thread: 0, record: .nodeCreated(id: 1, kind: .store, name: "TodoStore", parent: 0)),
        .init(timestamp: 2, thread: 0, record: .nodeCreated(id: 2, kind: .reactiveValue, name: "", parent: 0)),
        .init(timestamp: 2, thread: 0, record: .value(node: 2, value: "all")),
        .init(timestamp: 2, thread: 0, record: .nodeNamed(id: 2, name: "TodoStore.filter", owner: 1)),
        .init(timestamp: 3, thread: 0, record: .actionBegan(store: 1, name: "setVisibilityFilter(_:)", arguments: "active")),
        .init(timestamp: 3, thread: 0, record: .value(node: 2, value: "active")),
        .init(timestamp: 3, thread: 0, record: .changed(dependency: 2)),
        .init(timestamp: 4, thread: 0, record: .actionEnded(store: 1)),
        .init(timestamp: 5, thread: 0, record: .value(node: 2, value: "completed")),
        .init(timestamp: 5, thread: 0, record: .changed(dependency: 2)),
        // A change with no value before it (values off for it): no arrow.
        .init(timestamp: 6, thread: 0, record: .changed(dependency: 2)),
    ]

    @Test func changesShowOldAndNewValues() {
        var formatter = ReplayFormatter()
        let lines = Self.events.compactMap { formatter.line(for: $0) }
        #expect(lines.count == Self.events.count - 2)   // the two new values fold into their changes
        #expect(lines.contains { $0.contains("value ") && $0.hasSuffix("#2 = all") })
        let changes = lines.filter { $0.contains("changed") }
        #expect(changes.count == 3)
        #expect(changes[0].hasSuffix("property TodoStore.filter: all → active"))
        #expect(changes[1].hasSuffix("property TodoStore.filter: active → completed"))
        #expect(changes[2].hasSuffix("property TodoStore.filter"))
    }

    @Test func askingForValueLinesShowsEveryValue() {
        var formatter = ReplayFormatter(filter: ReplayFilter(kinds: [.value]))
        let lines = Self.events.compactMap { formatter.line(for: $0) }
        #expect(lines.count == 3)
        #expect(lines.map { $0.components(separatedBy: " = ").last } == ["all", "active", "completed"])
    }

    @Test func aTraceWithoutValuesReplaysAsBefore() {
        var formatter = ReplayFormatter()
        let withoutValues = Self.events.filter { if case .value = $0.record { false } else { true } }
        let lines = withoutValues.compactMap { formatter.line(for: $0) }
        #expect(lines.count == withoutValues.count)
        #expect(!lines.contains { $0.contains("→") })
    }
}
