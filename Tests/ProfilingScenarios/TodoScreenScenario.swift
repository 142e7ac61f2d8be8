// A profiling scenario, as an app's test suite would have one: the test drives a
// screen through its store's actions while `TraceRecorder` records, and CI checks
// the trace against a budget (Examples/ProfilingInCI/run.sh, README "Profiling
// in CI"). It records only when REACTOR_PROFILE_TRACE names the trace file, so
// an ordinary `swift test` skips it; run it on its own, since the recorder is
// process-wide and would also record any suite running beside it.
//
//   REACTOR_PROFILE_TRACE=traces/pr.trace swift test --filter ProfilingScenarios
//
// REACTOR_PROFILE_SLOW_FOOTER=1 plays a pull request that makes the footer read
// the whole list instead of the remaining-count computed: same output, more reruns.
import Foundation
import Testing
import ReactorCore
import ReactorTrace

private let environment = ProcessInfo.processInfo.environment

/// A todo list's state, changed through named actions only.
private final class TodoStore: Store {
    struct Todo: Equatable {
        var text: String
        var done = false
    }

    @Reactive var todos: [Todo] = []

    init() {
        super.init(name: "TodoStore")
        requireActions = true
    }

    func addTodo(_ text: String) {
        action(text) { todos.append(Todo(text: text)) }
    }

    func toggleTodo(_ index: Int) {
        action(index) { todos[index].done.toggle() }
    }

    func renameTodo(_ index: Int, to text: String) {
        action(index, text) { todos[index].text = text }
    }
}

/// What a screen would render from the store: a list and a footer.
private final class TodoScreen {
    private(set) var rows: [String] = []
    private(set) var footer = ""
    private var computations: [Computation] = []

    init(store: TodoStore, reactor: Reactor, slowFooter: Bool) {
        let remaining = reactor.computed("remainingCount") { store.todos.count(where: { !$0.done }) }
        computations.append(reactor.autorun("list") { [unowned self] _ in
            rows = store.todos.map { ($0.done ? "✓ " : "  ") + $0.text }
        })
        computations.append(reactor.autorun("footer") { [unowned self] _ in
            // The regression: counting from the list reruns the footer on every
            // change of any todo (a rename too), where the computed cuts off unchanged counts.
            let count = slowFooter ? store.todos.count(where: { !$0.done }) : remaining.value
            footer = "\(count) left"
        })
    }

    deinit { computations.forEach { $0.stop() } }
}

@Suite(.serialized, .enabled(if: environment["REACTOR_PROFILE_TRACE"] != nil, "set REACTOR_PROFILE_TRACE=path to record"))
struct ProfilingScenarios {
    @Test func addingAndCompletingTodos() throws {
        let path = try #require(environment["REACTOR_PROFILE_TRACE"])
        try TraceRecorder.start(path: path)
        defer { TraceRecorder.stop() }

        let store = TodoStore()
        let screen = TodoScreen(store: store, reactor: Reactor(), slowFooter: environment["REACTOR_PROFILE_SLOW_FOOTER"] == "1")
        for index in 0..<60 { store.addTodo("item \(index)") }
        for index in stride(from: 0, to: 60, by: 3) { store.toggleTodo(index) }
        // Renaming changes the list but not the count: the footer has no reason to rerun.
        for index in 0..<20 { store.renameTodo(index, to: "item \(index), renamed") }

        #expect(screen.rows.count == 60)
        #expect(screen.footer == "40 left")
    }
}
