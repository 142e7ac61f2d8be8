// A profiling scenario, as an app's test suite would have one, checked two ways
// (Examples/ProfilingInCI/run.sh, README "Profiling in CI"):
//
// - `withinTheRerunBudget` records the scenario in process with ReactorTesting and
//   checks a budget of counts in three lines; it runs in every `swift test`.
// - `addingAndCompletingTodos` records it to a file with `TraceRecorder`, for
//   `reactor-inspect check`, `diff` and the reports. It records only when
//   REACTOR_PROFILE_TRACE names the trace file, so an ordinary `swift test` skips
//   it; the suite is serialized because that recorder is process-wide.
//
//   REACTOR_PROFILE_TRACE=traces/pr.trace swift test --filter ProfilingScenarios/addingAndCompletingTodos
//
// REACTOR_PROFILE_SLOW_FOOTER=1 plays a pull request that makes the footer read
// the whole list instead of the remaining-count computed: same output, more reruns.
import Foundation
import Testing
import ReactorCore
import ReactorTesting
import ReactorTrace
import TracerSlot

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

/// Adds 60 todos, completes every third and renames 20, as a user of the screen would.
private func playTodoScreen() {
    let store = TodoStore()
    let screen = TodoScreen(store: store, reactor: Reactor(), slowFooter: environment["REACTOR_PROFILE_SLOW_FOOTER"] == "1")
    for index in 0..<60 { store.addTodo("item \(index)") }
    for index in stride(from: 0, to: 60, by: 3) { store.toggleTodo(index) }
    // Renaming changes the list but not the count: the footer has no reason to rerun.
    for index in 0..<20 { store.renameTodo(index, to: "item \(index), renamed") }

    #expect(screen.rows.count == 60)
    #expect(screen.footer == "40 left")
}

/// Counts only: a budget a unit test can hold deterministically (times belong to `check` on a recorded trace).
private let rerunBudget = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Examples/ProfilingInCI/rerun-budget.json").path

@Suite(.serialized)
struct ProfilingScenarios {
    @Test(.recordsScenarios) func withinTheRerunBudget() throws {
        let trace = try ScenarioTrace.record { playTodoScreen() }
        let budget = try trace.check(budgetFile: rerunBudget)
        #expect(budget.passed)
    }

    @Test(.installsTracer, .enabled(if: environment["REACTOR_PROFILE_TRACE"] != nil, "set REACTOR_PROFILE_TRACE=path to record"))
    func addingAndCompletingTodos() throws {
        let path = try #require(environment["REACTOR_PROFILE_TRACE"])
        try TraceRecorder.start(path: path)
        defer { TraceRecorder.stop() }
        playTodoScreen()
    }
}
