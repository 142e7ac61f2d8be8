// Reflow's todo store in Swift: `@Reactive` state changed only through named
// actions, a visibility filter, a list autorun, a computed count and a
// subscriber that hears every action (the filter button's title).
//
//   todos [--trace PATH] [--trace-values N]
//
// Prints one JSON line with the reruns, writes and actions it counted itself.
import Foundation
import ReactorCore
import ReactorTrace
import SampleSupport

/// Which todos the list shows.
enum VisibilityFilter: String, Equatable, TraceValueDescribable {
    case all, active, completed

    /// `active` rather than `todos.VisibilityFilter.active` in traces with values.
    var traceDescription: String { rawValue }
}

/// One item of the list.
struct Todo: Equatable {
    var id: Int
    var text: String
    var done = false
}

/// The store: state in `@Reactive` properties, changed in actions only.
final class TodoStore: Store {
    @Reactive var todos: [Todo] = []
    @Reactive var filter = VisibilityFilter.all
    /// How many writes changed the state (an equal write changes nothing and is not counted).
    private(set) var writes = 0
    private var nextID = 1

    init() {
        super.init(name: "TodoStore")
        requireActions = true   // a write outside an action would be an issue in the trace
    }

    var visibleTodos: [Todo] {
        switch filter {
        case .all: todos
        case .active: todos.filter { !$0.done }
        case .completed: todos.filter(\.done)
        }
    }

    func addTodo(_ text: String) {
        action(text) {
            todos.append(Todo(id: nextID, text: text))
            nextID += 1
            writes += 1
        }
    }

    func toggleTodo(_ id: Int) {
        action(id) {
            guard let index = todos.firstIndex(where: { $0.id == id }) else { return }
            todos[index].done.toggle()
            writes += 1
        }
    }

    func setVisibilityFilter(_ filter: VisibilityFilter) {
        action(filter) {
            if self.filter != filter { writes += 1 }
            self.filter = filter
        }
    }

    func clearCompleted() {
        action {
            if todos.contains(where: \.done) { writes += 1 }
            todos.removeAll(where: \.done)
        }
    }
}

var commandLine = SampleCommandLine(program: "todos", usage: "[--trace PATH] [--trace-values N]")
while let option = commandLine.nextOption() { commandLine.rejectUnknown(option) }
commandLine.startTracing()

/// What the screen shows, and how often each part was redrawn.
final class TodoScreen {
    var listLines: [String] = []
    var countLabel = ""
    var filterTitle = "All"
    var listReruns = 0
    var countLabelReruns = 0
    var remainingRuns = 0
    var actionsHeard = 0
}

let reactor = Reactor.shared
let store = TodoStore()
let screen = TodoScreen()
let remaining = reactor.computed("remainingCount") { () -> Int in
    screen.remainingRuns += 1
    return store.todos.filter { !$0.done }.count
}
let list = reactor.autorun("list") { computation in
    screen.listLines = store.visibleTodos.map { ($0.done ? "[x] " : "[ ] ") + $0.text }
    if !computation.isFirstRun { screen.listReruns += 1 }
}
let countLabel = reactor.autorun("countLabel") { computation in
    let count = remaining.value
    screen.countLabel = count == 1 ? "1 item left" : "\(count) items left"
    if !computation.isFirstRun { screen.countLabelReruns += 1 }
}
let subscription = store.subscribe { action in
    screen.actionsHeard += 1
    if action.name == "setVisibilityFilter(_:)" { screen.filterTitle = store.filter.rawValue.capitalized }
}

store.addTodo("Buy milk")
store.addTodo("Walk the dog")
store.addTodo("Write the trace format")
store.addTodo("Review the inspector")
store.toggleTodo(1)
store.toggleTodo(3)
store.setVisibilityFilter(.active)
store.addTodo("Ship it")
store.setVisibilityFilter(.completed)
store.toggleTodo(1)
store.clearCompleted()
store.setVisibilityFilter(.all)
store.toggleTodo(2)
store.setVisibilityFilter(.active)

TraceRecorder.stop()
subscription.cancel()
list.stop()
countLabel.stop()
let rerunList = [("countLabel", screen.countLabelReruns), ("list", screen.listReruns),
                 ("remainingCount", screen.remainingRuns - 1)]
    .filter { $0.1 > 0 }.map { #""\#($0.0)":\#($0.1)"# }.joined(separator: ",")
print(#"{"sample":"todos","reruns":{\#(rerunList)},"writes":\#(store.writes),"actions":\#(screen.actionsHeard),"#
      + #""visible":\#(screen.listLines.count),"countLabel":"\#(screen.countLabel)","filter":"\#(screen.filterTitle)"}"#)
