import CSQLite
import ReactorInspector
import ReactorTraceFormat

/// Writes the importer's resolved events into the tables of docs/SQL.md, one
/// row per run, action, flush, invalidation, change, value and issue, during
/// the one import pass (``TraceModelBuilder`` hands it each event).
final class TraceTableWriter: ImportedEventVisitor {
    private let trace: String
    private let runs: SQLiteStatement
    private let actions: SQLiteStatement
    private let flushes: SQLiteStatement
    private let invalidations: SQLiteStatement
    private let changes: SQLiteStatement
    private let values: SQLiteStatement
    private let issues: SQLiteStatement
    /// Per thread index (those the trace holds): the arguments of its open actions.
    private var openArguments: [Int: [String]] = [:]
    /// Action names by the importer's position (a name is built once).
    private var actionNames: [String?] = []
    /// The first write error; the pass goes on, the import then fails with it.
    private(set) var failure: TraceSQLError?

    init(connection: SQLiteConnection, trace: String) throws(TraceSQLError) {
        self.trace = trace
        runs = try connection.prepare("""
            INSERT INTO run_slices(trace, node, thread, depth, start_ns, duration_ns, self_ns, first_run, root_action)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
            """)
        actions = try connection.prepare("""
            INSERT INTO actions(trace, thread, depth, start_ns, duration_ns, name, arguments, outermost, root_action)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
            """)
        flushes = try connection.prepare("INSERT INTO flushes(trace, thread, start_ns, duration_ns) VALUES (?1, ?2, ?3, ?4)")
        invalidations = try connection.prepare("""
            INSERT INTO invalidations(trace, time_ns, thread, computation, cause, source, root_action)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
            """)
        changes = try connection.prepare("""
            INSERT INTO changes(trace, time_ns, thread, node, root_action) VALUES (?1, ?2, ?3, ?4, ?5)
            """)
        values = try connection.prepare("INSERT INTO node_values(trace, time_ns, thread, node, value) VALUES (?1, ?2, ?3, ?4, ?5)")
        issues = try connection.prepare("""
            INSERT INTO issues(trace, time_ns, thread, kind, node, message) VALUES (?1, ?2, ?3, ?4, ?5, ?6)
            """)
        for statement in [runs, actions, flushes, invalidations, changes, values, issues] { statement.bind(1, trace) }
    }

    private func actionName(_ position: Int32, _ importer: TraceModelBuilder) -> String? {
        guard position >= 0 else { return nil }
        let index = Int(position)
        if index >= actionNames.count { actionNames.append(contentsOf: repeatElement(nil, count: index - actionNames.count + 1)) }
        if let name = actionNames[index] { return name }
        let name = importer.actionName(position)
        actionNames[index] = name
        return name
    }

    private func insert(_ statement: SQLiteStatement) {
        do {
            try statement.run()
        } catch {
            if failure == nil { failure = error }
        }
    }

    func visit(_ event: ImportedEvent, from importer: TraceModelBuilder) {
        let thread = Int(event.thread)
        switch event.record {
        case .rerunEnded:
            guard let slice = event.slice, event.node >= 0 else { return }
            runs.bind(2, importer.nodeID(event.node))
            runs.bind(3, thread)
            runs.bind(4, event.depth)
            runs.bind(5, slice.begin)
            runs.bind(6, slice.durationNanoseconds)
            runs.bind(7, slice.selfNanoseconds)
            runs.bind(8, slice.firstRun)
            runs.bind(9, actionName(event.rootAction, importer))
            insert(runs)
        case .actionBegan(_, _, let arguments):
            openArguments[thread, default: []].append(importer.string(arguments))
        case .actionEnded:
            let arguments = openArguments[thread]?.popLast()
            guard let slice = event.slice else { return }
            actions.bind(2, thread)
            actions.bind(3, event.depth)
            actions.bind(4, slice.begin)
            actions.bind(5, slice.durationNanoseconds)
            actions.bind(6, actionName(event.action, importer))
            actions.bind(7, arguments)
            actions.bind(8, slice.outermost)
            actions.bind(9, actionName(event.rootAction, importer))
            insert(actions)
        case .flushEnded:
            guard let slice = event.slice else { return }
            flushes.bind(2, thread)
            flushes.bind(3, slice.begin)
            flushes.bind(4, slice.durationNanoseconds)
            insert(flushes)
        case let .invalidated(computation, cause, source):
            invalidations.bind(2, event.time)
            invalidations.bind(3, thread)
            invalidations.bind(4, computation)
            invalidations.bind(5, cause.label)
            if source == 0 { invalidations.bindNull(6) } else { invalidations.bind(6, source) }
            invalidations.bind(7, actionName(event.rootAction, importer))
            insert(invalidations)
        case let .changed(dependency):
            changes.bind(2, event.time)
            changes.bind(3, thread)
            changes.bind(4, dependency)
            changes.bind(5, actionName(event.rootAction, importer))
            insert(changes)
        case let .value(node, value):
            values.bind(2, event.time)
            values.bind(3, thread)
            values.bind(4, node)
            values.bind(5, importer.string(value))
            insert(values)
        case let .issue(kind, node, message):
            issues.bind(2, event.time)
            issues.bind(3, thread)
            issues.bind(4, kind.budgetName)
            if node == 0 { issues.bindNull(5) } else { issues.bind(5, node) }
            issues.bind(6, importer.string(message))
            insert(issues)
        case .nodeCreated, .nodeNamed, .nodeStopped, .depend, .rerunBegan, .flushBegan, .site:
            break
        }
    }
}
