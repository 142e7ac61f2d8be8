import Testing
import ReactorCore

struct Todo: Equatable {
    var text: String
    var done = false
}

enum VisibilityFilter: Equatable {
    case all, active, completed
}

/// Reflow's TodoStore, in Swift.
final class TodoStore: Store, @unchecked Sendable {
    // @unchecked Sendable: its state is @Reactive, guarded by the graph lock.
    @Reactive var todos: [Todo] = []
    @Reactive var filter = VisibilityFilter.all

    var visibleTodos: [Todo] {
        switch filter {
        case .all: todos
        case .active: todos.filter { !$0.done }
        case .completed: todos.filter(\.done)
        }
    }

    func addTodo(_ text: String) {
        action(text) { todos.append(Todo(text: text)) }
    }

    func toggleTodo(_ index: Int) {
        action(index) { todos[index].done.toggle() }
    }

    func setVisibilityFilter(_ filter: VisibilityFilter) {
        action(filter) { self.filter = filter }
    }

    func addTodos(_ texts: [String]) {
        action(texts) {
            for text in texts { addTodo(text) }
        }
    }

    func failingAction() throws {
        try action { throw SignalTestError() }
    }
}

@Suite struct StoreTests {
    @Test func nameDefaultsToTheSubclassTypeName() {
        #expect(TodoStore().name == "TodoStore")
        #expect(TodoStore(name: "todos").name == "todos")
        #expect(Store().name == "Store")
    }

    @Test func anActionRerunsAutorunsOnceAfterItEnds() {
        let reactor = Reactor()
        let store = TodoStore(reactor: reactor)
        var runs: [Int] = []
        let computation = reactor.autorun { _ in runs.append(store.todos.count + (store.filter == .all ? 0 : 100)) }
        store.action {
            store.todos.append(Todo(text: "a"))
            store.todos.append(Todo(text: "b"))
            store.filter = .active
            #expect(runs == [0])  // nothing reruns inside the action
        }
        #expect(runs == [0, 102])
        computation.stop()
    }

    @Test func subscribersAreToldAfterTheActionCompletesWithNameAndArguments() {
        let store = TodoStore()
        var received: [Action] = []
        var countsSeen: [Int] = []
        let subscription = store.subscribe { action in
            received.append(action)
            countsSeen.append(store.todos.count)
        }
        store.addTodo("buy milk")
        store.setVisibilityFilter(.active)
        #expect(received.map(\.name) == ["addTodo(_:)", "setVisibilityFilter(_:)"])
        #expect(received.first?.arguments.first as? String == "buy milk")
        #expect(received.last?.arguments.first as? VisibilityFilter == .active)
        #expect(received.allSatisfy { $0.store === store })
        #expect(countsSeen == [1, 1])  // the state was already changed
        withExtendedLifetime(subscription) {}
    }

    @Test func subscribersRunAfterTheAutorunsHaveRerun() {
        let reactor = Reactor()
        let store = TodoStore(reactor: reactor)
        var log: [String] = []
        let computation = reactor.autorun { _ in log.append("autorun \(store.todos.count)") }
        let subscription = store.subscribe { log.append("subscriber \($0.name)") }
        store.addTodo("a")
        #expect(log == ["autorun 0", "autorun 1", "subscriber addTodo(_:)"])
        computation.stop()
        withExtendedLifetime(subscription) {}
    }

    @Test func nestedActionsAreAllRecordedAndTheOuterEndsTheBatch() {
        let reactor = Reactor()
        let store = TodoStore(reactor: reactor)
        var runs = 0
        let computation = reactor.autorun { _ in _ = store.todos; runs += 1 }
        var names: [String] = []
        let subscription = store.subscribe { names.append($0.name) }
        store.addTodos(["a", "b"])
        #expect(runs == 2)  // one rerun for the whole outer action
        #expect(store.todos.map(\.text) == ["a", "b"])
        #expect(names == ["addTodo(_:)", "addTodo(_:)", "addTodos(_:)"])
        computation.stop()
        withExtendedLifetime(subscription) {}
    }

    @Test func subscribeToAllStoresHearsEveryStore() {
        let first = TodoStore(name: "first")
        let second = TodoStore(name: "second")
        var heard: [String] = []
        let subscription = Store.subscribeToAllStores { action in
            if action.store === first || action.store === second {
                heard.append("\(action.store.name).\(action.name)")
            }
        }
        first.addTodo("x")
        second.toggleTodoIfAny()
        second.addTodo("y")
        #expect(heard == ["first.addTodo(_:)", "second.toggleTodoIfAny()", "second.addTodo(_:)"])
        subscription.cancel()
        first.addTodo("z")
        #expect(heard.count == 3)
    }

    @Test func cancelledStoreSubscriptionHearsNothing() {
        let store = TodoStore()
        var count = 0
        let subscription = store.subscribe { _ in count += 1 }
        store.addTodo("a")
        subscription.cancel()
        store.addTodo("b")
        #expect(count == 1)
    }

    @Test func anActionReturnsItsBodysResult() {
        let store = TodoStore()
        let count = store.action("x") { () -> Int in
            store.todos.append(Todo(text: "x"))
            return store.todos.count
        }
        #expect(count == 1)
    }

    @Test func aThrowingActionRethrowsAndIsNotAnnounced() {
        let store = TodoStore()
        var count = 0
        let subscription = store.subscribe { _ in count += 1 }
        #expect(throws: SignalTestError.self) { try store.failingAction() }
        #expect(count == 0)
        store.addTodo("after")
        #expect(count == 1)
        withExtendedLifetime(subscription) {}
    }

    @Test func theVisibilityFilterExample() {
        let reactor = Reactor()
        let store = TodoStore(reactor: reactor)
        var visible: [[String]] = []
        let computation = reactor.autorun { _ in visible.append(store.visibleTodos.map(\.text)) }
        store.addTodo("milk")
        store.addTodo("eggs")
        store.toggleTodo(0)
        store.setVisibilityFilter(.active)
        #expect(visible.last == ["eggs"])
        store.setVisibilityFilter(.completed)
        #expect(visible.last == ["milk"])
        #expect(visible.count == 6)
        computation.stop()
    }

    @Test func actionsAreUntracked() {
        let reactor = Reactor()
        let store = TodoStore(reactor: reactor)
        let other = ReactiveProperty(initialValue: 0)
        var runs = 0
        let computation = reactor.autorun { _ in
            runs += 1
            if runs == 1 { store.action { _ = other.value } }
        }
        other.value = 1
        #expect(runs == 1)
        computation.stop()
    }

    @Test func argumentSummaryQuotesStringsRedactsAndTruncates() {
        let store = TodoStore()
        let action = Action(store: store, name: "add(_:_:)", arguments: ["buy milk", 3, Redacted("hunter2")])
        #expect(action.argumentSummary == "\"buy milk\", 3, ‹redacted›")
        let long = Action(store: store, name: "x", arguments: [String(repeating: "a", count: 150), 1, 2, 3, 4, 5])
        #expect(long.argumentSummary.utf8.count <= 120)
        #expect(long.argumentSummary.hasSuffix("…"))
    }
}

extension TodoStore {
    func toggleTodoIfAny() {
        action { if !todos.isEmpty { todos[0].done.toggle() } }
    }
}

@Suite struct StoreRequireActionsTests {
    /// Collects the issues of a private runtime.
    final class Issues {
        var writes: [(store: String, property: String)] = []
        let reactor = Reactor()
        init() {
            reactor.issueHandler = { [unowned self] issue in
                if case let .writeOutsideAction(store, property) = issue { writes.append((store, property)) }
            }
        }
    }

    @Test func writeOutsideAnActionIsReportedWithStoreAndProperty() {
        let issues = Issues()
        let store = TodoStore(reactor: issues.reactor, requireActions: true)
        store.todos = [Todo(text: "sneaky")]
        #expect(issues.writes.count == 1)
        #expect(issues.writes.first?.store == "TodoStore")
        #expect(issues.writes.first?.property == "todos")
        #expect(store.todos.count == 1)  // reported, not refused
    }

    @Test func writesInsideActionsAreNotReported() {
        let issues = Issues()
        let store = TodoStore(name: "todos", reactor: issues.reactor, requireActions: true)
        store.addTodo("fine")
        store.setVisibilityFilter(.completed)
        store.addTodos(["nested", "too"])
        #expect(issues.writes.isEmpty)
        store.filter = .all
        #expect(issues.writes.map(\.store) == ["todos"])
        #expect(issues.writes.map(\.property) == ["filter"])
    }

    @Test func storesWithoutRequireActionsAreNotChecked() {
        let issues = Issues()
        let store = TodoStore(reactor: issues.reactor)
        store.todos = []
        store.filter = .active
        #expect(issues.writes.isEmpty)
        store.requireActions = true
        store.filter = .all
        #expect(issues.writes.count == 1)
        store.requireActions = false
        store.filter = .active
        #expect(issues.writes.count == 1)
    }
}

@Suite struct StoreMemoryTests {
    @Test func aStoreAndItsSubscribersAreFreed() {
        weak var weakStore: TodoStore?
        weak var weakToken: Token?
        do {
            let store = TodoStore()
            let token = Token()
            weakStore = store
            weakToken = token
            let subscription = store.subscribe { _ in _ = token }
            store.addTodo("a")
            subscription.cancel()
        }
        #expect(weakStore == nil)
        #expect(weakToken == nil)
    }
}
