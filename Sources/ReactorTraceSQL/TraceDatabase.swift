import CSQLite
import Foundation
import ReactorInspector
import ReactorTraceFormat

/// Traces imported into SQLite (the tables of docs/SQL.md), and read-only
/// queries over them: `reactor-inspect sql`.
///
/// The import and the query run in one transaction: the database changes only
/// when the query succeeds (``commit()``), so a bad query leaves a kept
/// database (`--db`) as it was. Queries may only read: an authorizer refuses
/// every statement that writes, attaches a file or changes a setting.
public final class TraceDatabase {
    let connection: SQLiteConnection
    private var inTransaction = false

    /// The tables' schema (docs/SQL.md).
    static let schema = """
        CREATE TABLE IF NOT EXISTS traces(trace TEXT PRIMARY KEY, path TEXT, app TEXT, commit_id TEXT, scenario TEXT,
            imported INTEGER, recorded_at_ns INTEGER, events INTEGER, duration_ns INTEGER, first_ns INTEGER, last_ns INTEGER,
            threads INTEGER, has_values INTEGER, complete INTEGER);
        CREATE TABLE IF NOT EXISTS nodes(trace TEXT, id INTEGER, name TEXT, kind TEXT, owner INTEGER, parent INTEGER,
            created_ns INTEGER, stopped_ns INTEGER, site TEXT, value TEXT, changes INTEGER, runs INTEGER,
            first_runs INTEGER, reruns INTEGER, total_ns INTEGER, self_ns INTEGER, max_ns INTEGER,
            PRIMARY KEY(trace, id)) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS run_slices(trace TEXT, node INTEGER, thread INTEGER, depth INTEGER, start_ns INTEGER,
            duration_ns INTEGER, self_ns INTEGER, first_run INTEGER, root_action TEXT);
        CREATE VIEW IF NOT EXISTS runs AS SELECT r.trace, r.node, n.name, n.kind, r.thread, r.depth, r.start_ns,
            r.duration_ns, r.self_ns, r.first_run, r.root_action
            FROM run_slices r JOIN nodes n ON n.trace = r.trace AND n.id = r.node;
        CREATE TABLE IF NOT EXISTS dependencies(trace TEXT, computation INTEGER, dependency INTEGER, depends INTEGER,
            invalidations INTEGER, first_seen_ns INTEGER, last_seen_ns INTEGER, held_at_end INTEGER);
        CREATE TABLE IF NOT EXISTS invalidations(trace TEXT, time_ns INTEGER, thread INTEGER, computation INTEGER,
            cause TEXT, source INTEGER, root_action TEXT);
        CREATE TABLE IF NOT EXISTS changes(trace TEXT, time_ns INTEGER, thread INTEGER, node INTEGER, root_action TEXT);
        CREATE TABLE IF NOT EXISTS node_values(trace TEXT, time_ns INTEGER, thread INTEGER, node INTEGER, value TEXT);
        CREATE TABLE IF NOT EXISTS actions(trace TEXT, thread INTEGER, depth INTEGER, start_ns INTEGER,
            duration_ns INTEGER, name TEXT, arguments TEXT, outermost INTEGER, root_action TEXT);
        CREATE TABLE IF NOT EXISTS flushes(trace TEXT, thread INTEGER, start_ns INTEGER, duration_ns INTEGER);
        CREATE TABLE IF NOT EXISTS issues(trace TEXT, time_ns INTEGER, thread INTEGER, kind TEXT, node INTEGER,
            message TEXT);
        """

    /// The tables holding one row set per trace (emptied when a trace is imported again).
    static let perTraceTables = ["traces", "nodes", "run_slices", "dependencies", "invalidations", "changes",
                                 "node_values", "actions", "flushes", "issues"]

    /// Opens the database at `path` (created if missing), or one in memory for nil.
    public init(path: String?) throws(TraceSQLError) {
        connection = try SQLiteConnection(path: path ?? ":memory:")
        if path == nil {
            try connection.execute("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;")
        } else {
            try connection.execute("PRAGMA synchronous = NORMAL;")
        }
        try begin()
        do {
            try connection.execute(Self.schema)
        } catch {
            throw TraceSQLError("the database does not hold reactor-inspect's tables: \(error.description)")
        }
    }

    private func begin() throws(TraceSQLError) {
        guard !inTransaction else { return }
        try connection.execute("BEGIN IMMEDIATE")
        inTransaction = true
    }

    /// Keeps what was imported.
    public func commit() throws(TraceSQLError) {
        guard inTransaction else { return }
        try connection.execute("COMMIT")
        inTransaction = false
    }

    /// Forgets what was imported since the database was opened.
    public func rollback() {
        guard inTransaction else { return }
        try? connection.execute("ROLLBACK")
        inTransaction = false
    }

    /// The labels of the traces the database holds, in import order.
    public func traceLabels() throws(TraceSQLError) -> [String] {
        let statement = try connection.prepare("SELECT trace FROM traces ORDER BY imported, trace")
        var labels: [String] = []
        while try statement.step() { labels.append(statement.value(0).text) }
        return labels
    }

    /// Imports the events of a trace under `label` (replacing a trace of that
    /// label), through the one importer; `read` streams the trace's batches
    /// to the body it is given and returns how reading went.
    public func importTrace(label: String, path: String, metadata: TraceLabels = TraceLabels(),
                            read: ((borrowing TraceEventBatch) -> Void) throws -> TraceReadReport) throws -> TraceReadReport {
        try begin()
        for table in Self.perTraceTables {
            let delete = try connection.prepare("DELETE FROM \(table) WHERE trace = ?1")
            delete.bind(1, label)
            try delete.run()
        }
        let builder = TraceModelBuilder()
        var writer = try TraceTableWriter(connection: connection, trace: label)
        let report = try read { batch in builder.consume(batch, visiting: &writer) }
        if let failure = writer.failure { throw failure }
        let model = builder.finish()
        try insertNodes(model, trace: label)
        try insertDependencies(model, trace: label)
        let order = try connection.prepare("SELECT coalesce(max(imported), 0) + 1 FROM traces")
        _ = try order.step()
        let imported = order.value(0)
        let trace = try connection.prepare("""
            INSERT INTO traces(trace, path, app, commit_id, scenario, imported, events, duration_ns, first_ns, last_ns,
                threads, has_values, complete, recorded_at_ns)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)
            """)
        trace.bind(1, label)
        trace.bind(2, path)
        // Labels given win; else the recording's own metadata (format 1.2).
        trace.bind(3, metadata.app ?? report.metadata.app)
        trace.bind(4, metadata.commit ?? report.metadata.commit)
        trace.bind(5, metadata.scenario ?? report.metadata.scenario)
        if case let .integer(number) = imported { trace.bind(6, number) }
        trace.bind(7, model.eventCount + report.skippedEvents + report.clockEvents)
        trace.bind(8, model.durationNanoseconds)
        trace.bind(9, model.firstTimestamp)
        trace.bind(10, model.lastTimestamp)
        trace.bind(11, model.threadCount)
        trace.bind(12, model.hasValues)
        trace.bind(13, report.warning == nil && !report.stillRecording)
        if let recordedAt = metadata.recordedAt { trace.bind(14, recordedAt) } else { trace.bindNull(14) }
        try trace.run()
        return report
    }

    private func insertNodes(_ model: TraceModel, trace: String) throws(TraceSQLError) {
        let insert = try connection.prepare("""
            INSERT INTO nodes(trace, id, name, kind, owner, parent, created_ns, stopped_ns, site, value, changes, runs,
                first_runs, reruns, total_ns, self_ns, max_ns)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17)
            """)
        insert.bind(1, trace)
        for node in model.nodes {
            insert.bind(2, node.id)
            insert.bind(3, node.name)
            insert.bind(4, node.kind.label)
            if node.owner == 0 { insert.bindNull(5) } else { insert.bind(5, node.owner) }
            if node.parent == 0 { insert.bindNull(6) } else { insert.bind(6, node.parent) }
            if let created = node.createdAt { insert.bind(7, created) } else { insert.bindNull(7) }
            if let stopped = node.stoppedAt { insert.bind(8, stopped) } else { insert.bindNull(8) }
            insert.bind(9, node.site)
            insert.bind(10, node.value)
            insert.bind(11, node.changes)
            insert.bind(12, node.runs.runs)
            insert.bind(13, node.runs.firstRuns)
            insert.bind(14, node.runs.reruns)
            insert.bind(15, node.runs.totalNanoseconds)
            insert.bind(16, node.runs.selfNanoseconds)
            insert.bind(17, node.runs.maxNanoseconds)
            try insert.run()
        }
    }

    private func insertDependencies(_ model: TraceModel, trace: String) throws(TraceSQLError) {
        let insert = try connection.prepare("""
            INSERT INTO dependencies(trace, computation, dependency, depends, invalidations, first_seen_ns, last_seen_ns,
                held_at_end) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
            """)
        insert.bind(1, trace)
        for edge in model.edges {
            insert.bind(2, edge.computation)
            insert.bind(3, edge.dependency)
            insert.bind(4, edge.depends)
            insert.bind(5, edge.invalidations)
            insert.bind(6, edge.firstSeen)
            insert.bind(7, edge.lastSeen)
            insert.bind(8, model.finalEdges.contains(edge.key))
            try insert.run()
        }
    }

    /// Runs one read-only statement and returns its rows. A statement that
    /// would write, attach a file, change a setting or start a transaction is
    /// refused; so is more than one statement.
    public func query(_ sql: String) throws(TraceSQLError) -> SQLQueryResult {
        sqlite3_set_authorizer(connection.handle, { _, action, _, _, _, _ in
            switch action {
            case SQLITE_SELECT, SQLITE_READ, SQLITE_FUNCTION, SQLITE_RECURSIVE: SQLITE_OK
            default: SQLITE_DENY
            }
        }, nil)
        defer { sqlite3_set_authorizer(connection.handle, nil, nil) }
        var handle: OpaquePointer?
        var tail: UnsafePointer<CChar>?
        let utf8 = Array(sql.utf8CString)
        let status = utf8.withUnsafeBufferPointer { buffer in
            sqlite3_prepare_v2(connection.handle, buffer.baseAddress, Int32(buffer.count), &handle, &tail)
        }
        guard status == SQLITE_OK else {
            sqlite3_finalize(handle)
            let message = connection.lastError
            if message == "not authorized" { throw TraceSQLError("only reading queries are allowed (SELECT, WITH … SELECT)") }
            throw TraceSQLError(message)
        }
        guard let handle else { throw TraceSQLError("the query is empty") }
        let statement = SQLiteStatement(handle, connection: connection)
        if let tail, !String(cString: tail).allSatisfy({ $0.isWhitespace || $0 == ";" }) {
            throw TraceSQLError("one statement at a time")
        }
        guard sqlite3_stmt_readonly(handle) != 0 else {
            throw TraceSQLError("only reading queries are allowed (SELECT, WITH … SELECT)")
        }
        let count = statement.columnCount
        let columns = (0..<count).map { statement.columnName($0) }
        var rows: [[SQLValue]] = []
        while try statement.step() {
            rows.append((0..<count).map { statement.value($0) })
        }
        return SQLQueryResult(columns: columns, rows: rows)
    }
}

/// What labels a trace in the database beside its name: the recording's
/// metadata, when the trace holds it (nil otherwise).
public struct TraceLabels: Sendable, Equatable {
    /// The app's name.
    public var app: String?
    /// The commit the recording was made at.
    public var commit: String?
    /// The scenario (test or executable) recorded.
    public var scenario: String?
    /// When the recording began (the header's wall clock, nanoseconds since 1970).
    public var recordedAt: UInt64?

    /// Creates labels.
    public init(app: String? = nil, commit: String? = nil, scenario: String? = nil, recordedAt: UInt64? = nil) {
        self.app = app
        self.commit = commit
        self.scenario = scenario
        self.recordedAt = recordedAt
    }
}
