import ReactorCore
import ReactorTrace

/// Builds event sequences for tests: a todo store whose `addTodo` changes
/// `TodoStore.todos`, which invalidates the computed `visibleTodos`, whose
/// change invalidates the autorun `TodoList.list`.
struct TraceScript {
    var events: [TraceEvent] = []
    var clock: UInt64 = 1_000

    static let store: UInt64 = 1
    static let todos: UInt64 = 2
    static let visible: UInt64 = 3
    static let visibleValue: UInt64 = 4
    static let list: UInt64 = 5
    static let footer: UInt64 = 6

    /// Sends the events' records through a real `TraceRecorder` into `path`,
    /// as an app would record them (the times are the recorder's).
    func record(to path: String, options: TraceRecorder.Options = .init()) throws {
        let recorder = try TraceRecorder(path: path, options: options)
        for event in events { event.record.send(to: recorder) }
        recorder.stop()
    }

    mutating func add(_ record: TraceRecord, thread: UInt32 = 0, advance: UInt64 = 0) {
        clock += advance
        events.append(TraceEvent(timestamp: clock, thread: thread, record: record))
    }

    /// Nodes and their first runs.
    mutating func setUp() {
        add(.nodeCreated(id: Self.store, kind: .store, name: "TodoStore", parent: 0))
        add(.nodeCreated(id: Self.todos, kind: .reactiveValue, name: "TodoStore.todos", parent: Self.store))
        add(.nodeCreated(id: Self.visible, kind: .computed, name: "visibleTodos", parent: 0))
        add(.nodeCreated(id: Self.visibleValue, kind: .dependency, name: "visibleTodos.value", parent: 0))
        add(.nodeCreated(id: Self.list, kind: .computation, name: "TodoList.list", parent: 0))
        add(.nodeCreated(id: Self.footer, kind: .computation, name: "Footer.count", parent: 0))
        for computation in [Self.visible, Self.list, Self.footer] {
            add(.rerunBegan(computation: computation, firstRun: true), advance: 10)
            add(.depend(computation: computation, dependency: computation == Self.visible ? Self.todos : Self.visibleValue))
            add(.rerunEnded(computation: computation), advance: 100)
        }
    }

    /// One `addTodo` whose flush runs inside the action: visibleTodos, then
    /// list (taking `listNanoseconds`) and footer rerun.
    mutating func addTodo(_ text: String, listNanoseconds: UInt64 = 200_000, thread: UInt32 = 0) {
        add(.actionBegan(store: Self.store, name: "addTodo(_:)", arguments: "\"\(text)\""), thread: thread, advance: 1_000)
        add(.changed(dependency: Self.todos), thread: thread)
        add(.invalidated(computation: Self.visible, cause: .dependency, source: Self.todos), thread: thread)
        add(.flushBegan, thread: thread, advance: 10)
        add(.rerunBegan(computation: Self.visible, firstRun: false), thread: thread, advance: 10)
        add(.changed(dependency: Self.visibleValue), thread: thread)
        add(.invalidated(computation: Self.list, cause: .dependency, source: Self.visibleValue), thread: thread)
        add(.invalidated(computation: Self.footer, cause: .dependency, source: Self.visibleValue), thread: thread)
        add(.rerunEnded(computation: Self.visible), thread: thread, advance: 50_000)
        add(.rerunBegan(computation: Self.list, firstRun: false), thread: thread, advance: 10)
        add(.rerunEnded(computation: Self.list), thread: thread, advance: listNanoseconds)
        add(.rerunBegan(computation: Self.footer, firstRun: false), thread: thread, advance: 10)
        add(.rerunEnded(computation: Self.footer), thread: thread, advance: 30_000)
        add(.flushEnded, thread: thread, advance: 10)
        add(.actionEnded(store: Self.store), thread: thread, advance: 10)
    }

    /// A trace with `count` addTodo actions.
    static func todos(count: Int, listNanoseconds: UInt64 = 200_000) -> [TraceEvent] {
        var script = TraceScript()
        script.setUp()
        for index in 0..<count { script.addTodo("item \(index)", listNanoseconds: listNanoseconds) }
        return script.events
    }
}
