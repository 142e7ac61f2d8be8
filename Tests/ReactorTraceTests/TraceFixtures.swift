import Foundation
import ReactorCore
@testable import ReactorTrace

/// Helpers shared by the trace suites.
enum TraceFixtures {
    /// A fresh path in the temporary directory.
    static func temporaryPath(_ name: String = "trace") -> String {
        let directory = FileManager.default.temporaryDirectory.path
        return "\(directory)/reactor-\(name)-\(getpid())-\(UUID().uuidString).trace"
    }

    /// Records what `body` sends to a (not installed) recorder and returns the file's bytes.
    static func record(options: TraceRecorder.Options = .init(),
                       _ body: (TraceRecorder) throws -> Void) throws -> [UInt8] {
        let path = temporaryPath()
        defer { unlink(path) }
        let recorder = try TraceRecorder(path: path, options: options)
        try body(recorder)
        recorder.stop()
        return try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// Every event of a trace, and the reader (for its end and truncation).
    static func readAll(_ bytes: [UInt8]) throws -> (events: [TraceEvent], reader: TraceReader) {
        let reader = try TraceReader(bytes: bytes)
        var events: [TraceEvent] = []
        while let event = try reader.next() { events.append(event) }
        return (events, reader)
    }

    /// One record of each kind, with every field set to a non-trivial value.
    static let everyKind: [TraceRecord] = [
        .nodeCreated(id: 1, kind: .computation, name: "Counter.label", parent: 0),
        .nodeCreated(id: 2, kind: .reactiveValue, name: "", parent: 1),
        .nodeNamed(id: 2, name: "Counter.count", owner: 7),
        .nodeNamed(id: 900_000_000_000, name: "é ✓ 🚀", owner: 0),
        .depend(computation: 1, dependency: 2),
        .depend(computation: 1, dependency: 1_000_000),
        .changed(dependency: 2),
        .invalidated(computation: 1, cause: .dependency, source: 2),
        .invalidated(computation: 3, cause: .parent, source: 1),
        .invalidated(computation: 1, cause: .explicit, source: 0),
        .invalidated(computation: 1, cause: .stop, source: 0),
        .rerunBegan(computation: 1, firstRun: true),
        .rerunBegan(computation: 3, firstRun: false),
        .rerunEnded(computation: 3),
        .rerunEnded(computation: 1),
        .actionBegan(store: 7, name: "addTodo(_:)", arguments: "\"milk\""),
        .actionBegan(store: 7, name: "addTodo(_:)", arguments: "\"milk\""),
        .actionEnded(store: 7),
        .actionEnded(store: 7),
        .flushBegan,
        .flushEnded,
        .issue(kind: .runaway, node: 1, message: "computation 'x' reran 10000 times"),
        .issue(kind: .nestedFlush, node: 0, message: ""),
        .nodeStopped(id: 1),
        .nodeCreated(id: UInt64(Int64.max), kind: .store, name: "TodoStore", parent: UInt64(Int64.max) - 1),
        .changed(dependency: 1),
        .value(node: 1, value: "\"all\""),
        .value(node: 1, value: "\"active\""),
        .value(node: 1, value: "\"all\""),
        .value(node: 3, value: "‹redacted›"),
        .value(node: 1, value: ""),
        .site(node: 7, site: "Todos/TodoStore.swift:12", isActionCall: false),
        .site(node: 7, site: "Todos/TodoStore.swift:12", isActionCall: true),
        // Strings after values: the string table's references skip the value table's entries.
        .issue(kind: .misuse, node: 1, message: "computation 'x' reran 10000 times"),
        .nodeNamed(id: 3, name: "\"all\"", owner: 0),
    ]
}
