import ReactorCore
import ReactorTrace
@testable import ReactorInspector

/// Builds synthetic event streams in the order ReactorCore emits them, with
/// a clock that advances a fixed step per event (runs can set durations).
struct EventScript {
    var events: [TraceEvent] = []
    var time: UInt64 = 1_000
    var thread: UInt32 = 0

    mutating func emit(_ record: TraceRecord, after step: UInt64 = 10) {
        time += step
        events.append(TraceEvent(timestamp: time, thread: thread, record: record))
    }

    mutating func create(_ id: UInt64, _ kind: TraceNodeKind, _ name: String, parent: UInt64 = 0) {
        emit(.nodeCreated(id: id, kind: kind, name: name, parent: parent))
    }

    mutating func name(_ id: UInt64, _ name: String, owner: UInt64 = 0) {
        emit(.nodeNamed(id: id, name: name, owner: owner))
    }

    /// A run of `id` lasting `duration` ns plus what `body` emits.
    mutating func run(_ id: UInt64, first: Bool = false, duration: UInt64 = 100, _ body: (inout EventScript) -> Void = { _ in }) {
        emit(.rerunBegan(computation: id, firstRun: first))
        body(&self)
        emit(.rerunEnded(computation: id), after: duration)
    }

    mutating func action(_ store: UInt64, _ name: String, _ arguments: String = "", _ body: (inout EventScript) -> Void) {
        emit(.actionBegan(store: store, name: name, arguments: arguments))
        body(&self)
        emit(.actionEnded(store: store))
    }

    mutating func flush(_ body: (inout EventScript) -> Void) {
        emit(.flushBegan)
        body(&self)
        emit(.flushEnded)
    }

    mutating func depend(_ computation: UInt64, _ dependency: UInt64) {
        emit(.depend(computation: computation, dependency: dependency), after: 0)
    }

    mutating func changed(_ dependency: UInt64) {
        emit(.changed(dependency: dependency), after: 0)
    }

    mutating func invalidate(_ computation: UInt64, _ cause: InvalidationCause, _ source: UInt64 = 0) {
        emit(.invalidated(computation: computation, cause: cause, source: source), after: 0)
    }

    func model(_ options: TraceModelOptions = TraceModelOptions()) -> TraceModel {
        TraceModel(events: events, options: options)
    }
}

/// Ids of the todo scenario's nodes.
enum Todo {
    static let store: UInt64 = 1
    static let todos: UInt64 = 2
    static let filter: UInt64 = 3
    static let visible: UInt64 = 4
    static let list: UInt64 = 5
    static let count: UInt64 = 6
}

extension EventScript {
    /// Two autoruns feeding each other through two dependencies for `rounds`
    /// rounds, started by an action: `ping` (4) reads `a` (2) and writes `b` (3),
    /// `pong` (5) reads `b` and writes `a`, so each rerun's chain grows by a round.
    static func pingPong(rounds: Int) -> EventScript {
        var script = EventScript()
        script.create(1, .store, "Loop")
        script.create(2, .dependency, "a")
        script.create(3, .dependency, "b")
        script.create(4, .computation, "ping")
        script.create(5, .computation, "pong")
        script.run(4, first: true) { s in s.depend(4, 2) }
        script.run(5, first: true) { s in s.depend(5, 3) }
        script.action(1, "start()") { s in s.changed(2); s.invalidate(4, .dependency, 2) }
        script.flush { s in
            for _ in 0..<rounds {
                s.run(4) { s in s.depend(4, 2); s.changed(3); s.invalidate(5, .dependency, 3) }
                s.run(5) { s in s.depend(5, 3); s.changed(2); s.invalidate(4, .dependency, 2) }
            }
        }
        return script
    }

    /// Reflow's todo store: `TodoStore.todos` and `.filter`, a computed
    /// `visibleTodos` reading both, an autorun `list` reading the computed and
    /// an autorun `count` reading `todos`. `adds` calls of `addTodo(_:)`, then
    /// one `setFilter(_:)` whose computed result is unchanged (cut off).
    static func todos(adds: Int = 3) -> EventScript {
        var script = EventScript()
        script.create(Todo.store, .store, "TodoStore")
        script.create(Todo.todos, .reactiveValue, "")
        script.create(Todo.filter, .reactiveValue, "")
        script.create(Todo.visible, .computed, "visibleTodos")
        script.create(Todo.list, .computation, "list")
        script.run(Todo.list, first: true, duration: 300) { s in
            s.name(Todo.todos, "TodoStore.todos", owner: Todo.store)
            s.name(Todo.filter, "TodoStore.filter", owner: Todo.store)
            s.run(Todo.visible, first: true, duration: 200) { s in
                s.depend(Todo.visible, Todo.todos)
                s.depend(Todo.visible, Todo.filter)
            }
            s.depend(Todo.list, Todo.visible)
        }
        script.create(Todo.count, .computation, "count")
        script.run(Todo.count, first: true, duration: 50) { s in s.depend(Todo.count, Todo.todos) }
        for index in 0..<adds {
            script.action(Todo.store, "addTodo(_:)", "\"todo \(index)\"") { s in
                s.changed(Todo.todos)
                s.invalidate(Todo.visible, .dependency, Todo.todos)
                s.invalidate(Todo.count, .dependency, Todo.todos)
            }
            script.flush { s in
                s.run(Todo.count, duration: 40) { s in s.depend(Todo.count, Todo.todos) }
                s.run(Todo.visible, duration: 200) { s in
                    s.depend(Todo.visible, Todo.todos)
                    s.depend(Todo.visible, Todo.filter)
                }
                s.changed(Todo.visible)
                s.invalidate(Todo.list, .dependency, Todo.visible)
                s.run(Todo.list, duration: 500) { s in s.depend(Todo.list, Todo.visible) }
            }
        }
        // A filter change whose computed value stays equal: list does not rerun.
        script.action(Todo.store, "setFilter(_:)", "all") { s in
            s.changed(Todo.filter)
            s.invalidate(Todo.visible, .dependency, Todo.filter)
        }
        script.flush { s in
            s.run(Todo.visible, duration: 150) { s in
                s.depend(Todo.visible, Todo.todos)
                s.depend(Todo.visible, Todo.filter)
            }
        }
        return script
    }
}
