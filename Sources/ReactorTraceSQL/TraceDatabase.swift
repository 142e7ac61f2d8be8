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

    /// The schema's version, kept in the database's `user_version`: a database
    /// of another version (or one holding other tables) is refused, never changed.
    static let schemaVersion: Int64 = 2

    /// The tables' schema (docs/SQL.md). Row tables hold integers (the trace's
    /// id, node ids, action ids, cause codes); the views give them their names.
    static var schema: String {
        let causes = InvalidationCause.allCases.map { "WHEN \($0.rawValue) THEN '\($0.label)'" }.joined(separator: " ")
        return """
        CREATE TABLE traces(trace_id INTEGER PRIMARY KEY, trace TEXT UNIQUE NOT NULL, path TEXT, app TEXT,
            commit_id TEXT, scenario TEXT, imported INTEGER, recorded_at_ns INTEGER, events INTEGER, duration_ns INTEGER,
            first_ns INTEGER, last_ns INTEGER, threads INTEGER, has_values INTEGER, complete INTEGER);
        CREATE TABLE nodes(trace TEXT, id INTEGER, name TEXT, kind TEXT, owner INTEGER, parent INTEGER,
            created_ns INTEGER, stopped_ns INTEGER, site TEXT, value TEXT, changes INTEGER, runs INTEGER,
            first_runs INTEGER, reruns INTEGER, total_ns INTEGER, self_ns INTEGER, max_ns INTEGER, trace_id INTEGER,
            PRIMARY KEY(trace_id, id)) WITHOUT ROWID;
        CREATE INDEX nodes_by_name ON nodes(name, trace_id);
        CREATE TABLE node_stats(trace TEXT, name TEXT, kind TEXT, instances INTEGER, runs INTEGER, first_runs INTEGER,
            reruns INTEGER, total_ns INTEGER, self_ns INTEGER, p50_ns INTEGER, p99_ns INTEGER, max_ns INTEGER,
            rerun_ns INTEGER, invalidations INTEGER, trace_id INTEGER);
        CREATE TABLE action_stats(trace TEXT, name TEXT, store INTEGER, calls INTEGER, total_ns INTEGER,
            runs_caused INTEGER, reruns_caused INTEGER, trace_id INTEGER);
        CREATE TABLE node_actions(trace TEXT, name TEXT, kind TEXT, root_action TEXT, runs INTEGER, reruns INTEGER,
            trace_id INTEGER);
        CREATE TABLE action_names(trace_id INTEGER, id INTEGER, name TEXT, PRIMARY KEY(trace_id, id)) WITHOUT ROWID;
        CREATE TABLE dependencies(trace TEXT, computation INTEGER, dependency INTEGER, depends INTEGER,
            invalidations INTEGER, first_seen_ns INTEGER, last_seen_ns INTEGER, held_at_end INTEGER, trace_id INTEGER);
        CREATE TABLE run_slices(trace_id INTEGER, node INTEGER, thread INTEGER, depth INTEGER, start_ns INTEGER,
            duration_ns INTEGER, self_ns INTEGER, first_run INTEGER, root_action_id INTEGER);
        CREATE TABLE invalidation_rows(trace_id INTEGER, time_ns INTEGER, thread INTEGER, computation INTEGER,
            cause INTEGER, source INTEGER, root_action_id INTEGER);
        CREATE TABLE change_rows(trace_id INTEGER, time_ns INTEGER, thread INTEGER, node INTEGER, root_action_id INTEGER);
        CREATE TABLE value_rows(trace_id INTEGER, time_ns INTEGER, thread INTEGER, node INTEGER, value TEXT);
        CREATE TABLE action_rows(trace_id INTEGER, thread INTEGER, depth INTEGER, start_ns INTEGER,
            duration_ns INTEGER, action_id INTEGER, arguments TEXT, outermost INTEGER, root_action_id INTEGER);
        CREATE TABLE flush_rows(trace_id INTEGER, thread INTEGER, start_ns INTEGER, duration_ns INTEGER);
        CREATE TABLE issue_rows(trace_id INTEGER, time_ns INTEGER, thread INTEGER, kind TEXT, node INTEGER,
            message TEXT);
        CREATE VIEW runs AS SELECT t.trace, r.node, n.name, n.kind, r.thread, r.depth, r.start_ns, r.duration_ns,
            r.self_ns, r.first_run, a.name AS root_action
            FROM run_slices r JOIN traces t ON t.trace_id = r.trace_id
            JOIN nodes n ON n.trace_id = r.trace_id AND n.id = r.node
            LEFT JOIN action_names a ON a.trace_id = r.trace_id AND a.id = r.root_action_id;
        CREATE VIEW invalidations AS SELECT t.trace, i.time_ns, i.thread, i.computation,
            CASE i.cause \(causes) END AS cause, i.source, a.name AS root_action
            FROM invalidation_rows i JOIN traces t ON t.trace_id = i.trace_id
            LEFT JOIN action_names a ON a.trace_id = i.trace_id AND a.id = i.root_action_id;
        CREATE VIEW changes AS SELECT t.trace, c.time_ns, c.thread, c.node, a.name AS root_action
            FROM change_rows c JOIN traces t ON t.trace_id = c.trace_id
            LEFT JOIN action_names a ON a.trace_id = c.trace_id AND a.id = c.root_action_id;
        CREATE VIEW node_values AS SELECT t.trace, v.time_ns, v.thread, v.node, v.value
            FROM value_rows v JOIN traces t ON t.trace_id = v.trace_id;
        CREATE VIEW actions AS SELECT t.trace, c.thread, c.depth, c.start_ns, c.duration_ns, n.name, c.arguments,
            c.outermost, a.name AS root_action
            FROM action_rows c JOIN traces t ON t.trace_id = c.trace_id
            LEFT JOIN action_names n ON n.trace_id = c.trace_id AND n.id = c.action_id
            LEFT JOIN action_names a ON a.trace_id = c.trace_id AND a.id = c.root_action_id;
        CREATE VIEW flushes AS SELECT t.trace, f.thread, f.start_ns, f.duration_ns
            FROM flush_rows f JOIN traces t ON t.trace_id = f.trace_id;
        CREATE VIEW issues AS SELECT t.trace, i.time_ns, i.thread, i.kind, i.node, i.message
            FROM issue_rows i JOIN traces t ON t.trace_id = i.trace_id;
        """
    }

    /// The tables holding one row set per trace, keyed by `trace_id` (emptied when a trace is imported again).
    static let perTraceTables = ["traces", "nodes", "node_stats", "node_actions", "action_stats", "action_names", "dependencies",
                                 "run_slices", "invalidation_rows", "change_rows", "value_rows", "action_rows",
                                 "flush_rows", "issue_rows"]

    /// Opens the database at `path` (created if missing), or one in memory for
    /// nil. A database that holds other tables, or reactor-inspect's of
    /// another schema version, is refused and left as it was.
    public init(path: String?) throws(TraceSQLError) {
        // A file this run creates is removed if the run fails, so it needs no
        // rollback journal; a kept database keeps one, so that a failed query
        // rolls the import back.
        let isNew = path.map { !FileManager.default.fileExists(atPath: $0) } ?? true
        connection = try SQLiteConnection(path: path ?? ":memory:")
        do throws(TraceSQLError) {
            try connection.execute("""
                PRAGMA locking_mode = EXCLUSIVE; PRAGMA synchronous = OFF; PRAGMA temp_store = MEMORY;
                PRAGMA cache_size = -262144;
                """)
            if isNew { try connection.execute("PRAGMA page_size = 16384; PRAGMA journal_mode = OFF;") }
            try begin()
            let tables = try connection.prepare("SELECT count(*) FROM sqlite_schema")
            _ = try tables.step()
            let version = try connection.prepare("PRAGMA user_version")
            _ = try version.step()
            if tables.value(0) == .integer(0) {
                try connection.execute(Self.schema + "PRAGMA user_version = \(Self.schemaVersion);")
            } else if version.value(0) != .integer(Self.schemaVersion) {
                // The first schema set no version; its run_slices held the trace's label.
                let earlier = try connection.prepare("""
                    SELECT count(*) FROM pragma_table_info('run_slices') WHERE name = 'trace'
                    """)
                _ = try earlier.step()
                let version = earlier.value(0) == .integer(1) ? "1" : version.value(0).text
                throw TraceSQLError(version == "0"
                    ? "it holds other tables than reactor-inspect's (give a new file)"
                    : "it holds reactor-inspect's tables of another version (schema \(version), this one reads \(Self.schemaVersion)): import the traces into a new file")
            }
        } catch {
            rollback()
            throw TraceSQLError("the database \(path ?? "in memory") cannot be used: \(error.description)")
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
        let existing = try connection.prepare("SELECT trace_id FROM traces WHERE trace = ?1")
        existing.bind(1, label)
        if try existing.step(), case let .integer(old) = existing.value(0) {
            for table in Self.perTraceTables {
                let delete = try connection.prepare("DELETE FROM \(table) WHERE trace_id = ?1")
                delete.bind(1, old)
                try delete.run()
            }
        }
        let next = try connection.prepare("SELECT coalesce(max(trace_id), 0) + 1, coalesce(max(imported), 0) + 1 FROM traces")
        _ = try next.step()
        guard case let .integer(traceID) = next.value(0), case let .integer(imported) = next.value(1) else {
            throw TraceSQLError("the traces table is damaged")
        }
        let builder = TraceModelBuilder()
        // The rows go in on the writer's thread while this one decodes: the
        // connection is that thread's until `finish()` (or `cancel()`) returns.
        var writer = try TraceTableWriter(connection: connection, traceID: traceID)
        defer { writer.cancel() }
        let report = try read { batch in builder.consume(batch, visiting: &writer) }
        try writer.finish()
        // Built after the rows, once (cheaper than kept up row by row): the
        // long runs, the question the rows are for, found without a scan.
        try connection.execute("CREATE INDEX IF NOT EXISTS run_slices_by_duration ON run_slices(duration_ns)")
        try insertActionNames(builder, upTo: writer.lastActionPosition, traceID: traceID)
        try insertNodeActions(writer.runsByRootAction, builder, trace: label, traceID: traceID)
        let model = builder.finish()
        try insertNodes(model, trace: label, traceID: traceID)
        try insertDependencies(model, trace: label, traceID: traceID)
        try insertStats(model, trace: label, traceID: traceID)
        let trace = try connection.prepare("""
            INSERT INTO traces(trace_id, trace, path, app, commit_id, scenario, imported, events, duration_ns, first_ns,
                last_ns, threads, has_values, complete, recorded_at_ns)
            VALUES (?15, ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)
            """)
        trace.bind(1, label)
        trace.bind(2, path)
        // Labels given win; else the recording's own metadata (format 1.2).
        trace.bind(3, metadata.app ?? report.metadata.app)
        trace.bind(4, metadata.commit ?? report.metadata.commit)
        trace.bind(5, metadata.scenario ?? report.metadata.scenario)
        trace.bind(6, imported)
        trace.bind(7, model.eventCount + report.skippedEvents + report.clockEvents)
        trace.bind(8, model.durationNanoseconds)
        trace.bind(9, model.firstTimestamp)
        trace.bind(10, model.lastTimestamp)
        trace.bind(11, model.threadCount)
        trace.bind(12, model.hasValues)
        trace.bind(13, report.warning == nil && !report.stillRecording)
        if let recordedAt = metadata.recordedAt { trace.bind(14, recordedAt) } else { trace.bindNull(14) }
        trace.bind(15, traceID)
        try trace.run()
        return report
    }

    /// Names the actions rows refer to, with their stores' names as the trace ends.
    private func insertActionNames(_ builder: TraceModelBuilder, upTo last: Int32, traceID: Int64) throws(TraceSQLError) {
        guard last >= 0 else { return }
        let insert = try connection.prepare("INSERT INTO action_names(trace_id, id, name) VALUES (?1, ?2, ?3)")
        insert.bind(1, traceID)
        for position in 0...last {
            insert.bind(2, Int64(position))
            insert.bind(3, builder.actionName(position))
            try insert.run()
        }
    }

    /// Runs and reruns per computation (by name and kind, as `hot` groups
    /// them) and root action: the runs table's counts, added up as the rows were written.
    private func insertNodeActions(_ counts: [Int64: (runs: Int, reruns: Int)], _ builder: TraceModelBuilder, trace: String,
                                   traceID: Int64) throws(TraceSQLError) {
        struct Key: Hashable {
            let name: String, kind: String, action: String?
        }
        var totals: [Key: (runs: Int, reruns: Int)] = [:]
        for (key, count) in counts {
            let node = Int32(truncatingIfNeeded: key >> 32), action = Int32(truncatingIfNeeded: key & 0xFFFF_FFFF) - 1
            let group = Key(name: builder.name(ofNode: node), kind: builder.kind(ofNode: node).label,
                            action: action < 0 ? nil : builder.actionName(action))
            totals[group, default: (0, 0)].runs += count.runs
            totals[group, default: (0, 0)].reruns += count.reruns
        }
        let insert = try connection.prepare("""
            INSERT INTO node_actions(trace, name, kind, root_action, runs, reruns, trace_id) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
            """)
        insert.bind(1, trace)
        insert.bind(7, traceID)
        for (key, count) in totals.sorted(by: { ($0.key.name, $0.key.kind, $0.key.action ?? "") < ($1.key.name, $1.key.kind, $1.key.action ?? "") }) {
            insert.bind(2, key.name)
            insert.bind(3, key.kind)
            insert.bind(4, key.action)
            insert.bind(5, count.runs)
            insert.bind(6, count.reruns)
            try insert.run()
        }
    }

    /// The per-name figures `hot` and `summary` print, from the same model:
    /// `node_stats` (computations grouped by name and kind) and `action_stats`.
    private func insertStats(_ model: TraceModel, trace: String, traceID: Int64) throws(TraceSQLError) {
        let nodes = try connection.prepare("""
            INSERT INTO node_stats(trace, name, kind, instances, runs, first_runs, reruns, total_ns, self_ns, p50_ns,
                p99_ns, max_ns, rerun_ns, invalidations, trace_id)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)
            """)
        nodes.bind(1, trace)
        nodes.bind(15, traceID)
        for group in ComputationGroup.all(in: model) {
            nodes.bind(2, group.name)
            nodes.bind(3, group.kind.label)
            nodes.bind(4, group.ids.count)
            nodes.bind(5, group.runs.runs)
            nodes.bind(6, group.runs.firstRuns)
            nodes.bind(7, group.runs.reruns)
            nodes.bind(8, group.runs.totalNanoseconds)
            nodes.bind(9, group.runs.selfNanoseconds)
            nodes.bind(10, group.runs.p50Nanoseconds)
            nodes.bind(11, group.runs.p99Nanoseconds)
            nodes.bind(12, group.runs.maxNanoseconds)
            nodes.bind(13, group.runs.rerunNanoseconds)
            nodes.bind(14, group.invalidations.total)
            try nodes.run()
        }
        let actions = try connection.prepare("""
            INSERT INTO action_stats(trace, name, store, calls, total_ns, runs_caused, reruns_caused, trace_id)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
            """)
        actions.bind(1, trace)
        actions.bind(8, traceID)
        for action in model.actions {
            actions.bind(2, action.qualifiedName)
            actions.bind(3, action.store == 0 ? nil : action.store)
            actions.bind(4, action.count)
            actions.bind(5, action.totalNanoseconds)
            actions.bind(6, action.runsCaused)
            actions.bind(7, action.rerunsCaused)
            try actions.run()
        }
    }

    private func insertNodes(_ model: TraceModel, trace: String, traceID: Int64) throws(TraceSQLError) {
        let insert = try connection.prepare("""
            INSERT INTO nodes(trace, id, name, kind, owner, parent, created_ns, stopped_ns, site, value, changes, runs,
                first_runs, reruns, total_ns, self_ns, max_ns, trace_id)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18)
            """)
        insert.bind(1, trace)
        insert.bind(18, traceID)
        for node in model.nodes {
            insert.bind(2, node.id)
            insert.bind(3, node.name)
            insert.bind(4, node.kind.label)
            insert.bind(5, node.owner == 0 ? nil : node.owner)
            insert.bind(6, node.parent == 0 ? nil : node.parent)
            insert.bind(7, node.createdAt)
            insert.bind(8, node.stoppedAt)
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

    private func insertDependencies(_ model: TraceModel, trace: String, traceID: Int64) throws(TraceSQLError) {
        let insert = try connection.prepare("""
            INSERT INTO dependencies(trace, computation, dependency, depends, invalidations, first_seen_ns, last_seen_ns,
                held_at_end, trace_id) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
            """)
        insert.bind(1, trace)
        insert.bind(9, traceID)
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
