import CSQLite
import ReactorInspector
import ReactorTraceFormat

/// Writes the importer's resolved events into the row tables of docs/SQL.md
/// (`run_slices`, `invalidation_rows`, `change_rows`, `value_rows`,
/// `action_rows`, `flush_rows`, `issue_rows`), one row per run, action, flush,
/// invalidation, change, value and issue, during the one import pass
/// (``TraceModelBuilder`` hands it each event). Rows hold integers: the trace's
/// id, node ids, the importer's action positions (named in `action_names`
/// once the pass is over), cause codes; the views give them their names.
final class TraceTableWriter: ImportedEventVisitor {
    // The blocks being filled, one per table (numbered as `inserts`' inserters).
    @exclusivity(unchecked) private var runs: RowBlock
    @exclusivity(unchecked) private var actions: RowBlock
    @exclusivity(unchecked) private var flushes: RowBlock
    @exclusivity(unchecked) private var invalidations: RowBlock
    @exclusivity(unchecked) private var changes: RowBlock
    @exclusivity(unchecked) private var values: RowBlock
    @exclusivity(unchecked) private var issues: RowBlock
    /// Inserts full blocks on its own thread while the pass goes on.
    private let inserts: TableInsertThread
    private let traceID: Int64
    /// Per thread index (those the trace holds): the arguments of its open actions.
    @exclusivity(unchecked) private var openArguments: [Int: [String]] = [:]
    /// Runs and reruns per node and root action (node position << 32 | action position + 1).
    @exclusivity(unchecked) private(set) var runsByRootAction: [Int64: (runs: Int, reruns: Int)] = [:]
    /// The highest action position a row refers to (-1: none).
    @exclusivity(unchecked) private(set) var lastActionPosition: Int32 = -1

    /// Prepares the inserts and starts their thread: from here until
    /// ``finish()`` returns, only that thread uses `connection`.
    init(connection: SQLiteConnection, traceID: Int64) throws(TraceSQLError) {
        self.traceID = traceID
        let tables = [
            try SQLiteBulkInsert(connection: connection, table: "run_slices", columns: [
                "trace_id", "node", "thread", "depth", "start_ns", "duration_ns", "self_ns", "first_run", "root_action_id"]),
            try SQLiteBulkInsert(connection: connection, table: "action_rows", columns: [
                "trace_id", "thread", "depth", "start_ns", "duration_ns", "action_id", "arguments", "outermost",
                "root_action_id"], textColumns: ["arguments"]),
            try SQLiteBulkInsert(connection: connection, table: "flush_rows", columns: [
                "trace_id", "thread", "start_ns", "duration_ns"]),
            try SQLiteBulkInsert(connection: connection, table: "invalidation_rows", columns: [
                "trace_id", "time_ns", "thread", "computation", "cause", "source", "root_action_id"]),
            try SQLiteBulkInsert(connection: connection, table: "change_rows", columns: [
                "trace_id", "time_ns", "thread", "node", "root_action_id"]),
            try SQLiteBulkInsert(connection: connection, table: "value_rows", columns: [
                "trace_id", "time_ns", "thread", "node", "value"], textColumns: ["value"]),
            try SQLiteBulkInsert(connection: connection, table: "issue_rows", columns: [
                "trace_id", "time_ns", "thread", "kind", "node", "message"], textColumns: ["kind", "message"]),
        ]
        runs = tables[0].block(table: 0)
        actions = tables[1].block(table: 1)
        flushes = tables[2].block(table: 2)
        invalidations = tables[3].block(table: 3)
        changes = tables[4].block(table: 4)
        values = tables[5].block(table: 5)
        issues = tables[6].block(table: 6)
        inserts = TableInsertThread(inserters: tables)
        inserts.start()
    }

    deinit {
        inserts.cancel()
    }

    /// Inserts the rows still pending and waits until every row is in; the
    /// connection is the caller's again. Throws the first insert's failure.
    func finish() throws(TraceSQLError) {
        for block in [runs, actions, flushes, invalidations, changes, values, issues] where block.count > 0 {
            inserts.send(block)
        }
        try inserts.finish()
    }

    /// Ends the inserts' thread, dropping the rows not yet in (the import
    /// failed); after ``finish()`` it does nothing.
    func cancel() {
        inserts.cancel()
    }

    @inline(__always)
    private func setAction(_ block: inout RowBlock, _ column: Int, _ position: Int32) {
        if position < 0 {
            block.setNull(column)
        } else {
            if position > lastActionPosition { lastActionPosition = position }
            block.set(column, Int64(position))
        }
    }

    /// Ends the row being added to `block`; hands the block on once full.
    @inline(__always)
    private func endRow(_ block: inout RowBlock) {
        block.endRow()
        if block.isFull {
            let full = block
            block = block.emptied()
            inserts.send(full)
        }
    }

    func visit(_ event: ImportedEvent, from importer: TraceModelBuilder) {
        let thread = Int64(event.thread)
        switch event.record {
        case .rerunEnded:
            guard let slice = event.slice, event.node >= 0 else { return }
            runs.set(0, traceID)
            runs.set(1, importer.nodeID(event.node))
            runs.set(2, thread)
            runs.set(3, event.depth)
            runs.set(4, slice.begin)
            runs.set(5, slice.durationNanoseconds)
            runs.set(6, slice.selfNanoseconds)
            runs.set(7, slice.firstRun)
            setAction(&runs, 8, event.rootAction)
            endRow(&runs)
            let key = Int64(event.node) << 32 | (Int64(event.rootAction) + 1)
            runsByRootAction[key, default: (0, 0)].runs += 1
            if !slice.firstRun { runsByRootAction[key, default: (0, 0)].reruns += 1 }
        case .actionBegan(_, _, let arguments):
            openArguments[Int(thread), default: []].append(importer.string(arguments))
        case .actionEnded:
            let arguments = openArguments[Int(thread)]?.popLast()
            guard let slice = event.slice else { return }
            actions.set(0, traceID)
            actions.set(1, thread)
            actions.set(2, event.depth)
            actions.set(3, slice.begin)
            actions.set(4, slice.durationNanoseconds)
            setAction(&actions, 5, event.action)
            actions.set(6, arguments)
            actions.set(7, slice.outermost)
            setAction(&actions, 8, event.rootAction)
            endRow(&actions)
        case .flushEnded:
            guard let slice = event.slice else { return }
            flushes.set(0, traceID)
            flushes.set(1, thread)
            flushes.set(2, slice.begin)
            flushes.set(3, slice.durationNanoseconds)
            endRow(&flushes)
        case let .invalidated(computation, cause, source):
            invalidations.set(0, traceID)
            invalidations.set(1, event.time)
            invalidations.set(2, thread)
            invalidations.set(3, computation)
            invalidations.set(4, Int64(cause.rawValue))
            if source == 0 { invalidations.setNull(5) } else { invalidations.set(5, source) }
            setAction(&invalidations, 6, event.rootAction)
            endRow(&invalidations)
        case let .changed(dependency):
            changes.set(0, traceID)
            changes.set(1, event.time)
            changes.set(2, thread)
            changes.set(3, dependency)
            setAction(&changes, 4, event.rootAction)
            endRow(&changes)
        case let .value(node, value):
            values.set(0, traceID)
            values.set(1, event.time)
            values.set(2, thread)
            values.set(3, node)
            values.set(4, importer.string(value))
            endRow(&values)
        case let .issue(kind, node, message):
            issues.set(0, traceID)
            issues.set(1, event.time)
            issues.set(2, thread)
            issues.set(3, kind.budgetName)
            if node == 0 { issues.setNull(4) } else { issues.set(4, node) }
            issues.set(5, importer.string(message))
            endRow(&issues)
        case .nodeCreated, .nodeNamed, .nodeStopped, .depend, .rerunBegan, .flushBegan, .site:
            break
        }
    }
}
