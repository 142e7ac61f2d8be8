import CSQLite

/// Inserts the rows of one table many at a time: rows are kept in a buffer
/// of ``groupRows`` and inserted by one prepared multi-row
/// `INSERT … VALUES (…), (…) …`, so SQLite's per-statement work (opening the
/// table, the transaction check, resetting) is paid once a group instead of
/// once a row. The last, partial group gets a statement of its own size.
/// Internal storage of ``TraceTableWriter``, used from one thread (its
/// buffers skip the exclusivity checks: one access at a time by construction).
final class SQLiteBulkInsert {
    /// Rows per statement: enough to spread the per-statement cost, few
    /// enough that the statement stays small.
    static let groupRows = 64

    private let connection: SQLiteConnection
    private let table: String
    private let names: [String]
    private let columns: Int
    /// Which columns hold text (the rest hold integers).
    private let isText: [Bool]
    private let group: SQLiteStatement
    /// The buffered rows' integers, `columns` a row.
    @exclusivity(unchecked) private var integers: [Int64]
    /// The buffered rows' texts, `columns` a row (text columns only).
    @exclusivity(unchecked) private var texts: [String?]
    /// Per buffered row, a bit per column that is NULL.
    @exclusivity(unchecked) private var nulls: [UInt64]
    /// Rows buffered.
    @exclusivity(unchecked) private var count = 0

    /// Prepares the insert into `table` of `columns` (names, in binding
    /// order), of which `textColumns` hold text.
    init(connection: SQLiteConnection, table: String, columns names: [String],
         textColumns: Set<String> = []) throws(TraceSQLError) {
        precondition(names.count <= 64)
        self.connection = connection
        self.table = table
        self.names = names
        columns = names.count
        isText = names.map { textColumns.contains($0) }
        integers = [Int64](repeating: 0, count: Self.groupRows * names.count)
        texts = textColumns.isEmpty ? [] : [String?](repeating: nil, count: Self.groupRows * names.count)
        nulls = [UInt64](repeating: 0, count: Self.groupRows)
        group = try connection.prepare(Self.sql(table: table, columns: names, rows: Self.groupRows))
    }

    private static func sql(table: String, columns: [String], rows: Int) -> String {
        let row = "(" + repeatElement("?", count: columns.count).joined(separator: ",") + ")"
        return "INSERT INTO \(table)(\(columns.joined(separator: ", "))) VALUES "
            + repeatElement(row, count: rows).joined(separator: ",")
    }

    /// Sets column `column` (0-based) of the row being added.
    @inline(__always)
    func set(_ column: Int, _ value: Int64) {
        integers[count &* columns &+ column] = value
    }

    @inline(__always)
    func set(_ column: Int, _ value: UInt64) {
        set(column, Int64(bitPattern: value))
    }

    @inline(__always)
    func set(_ column: Int, _ value: Int) {
        set(column, Int64(value))
    }

    @inline(__always)
    func set(_ column: Int, _ value: Bool) {
        set(column, Int64(value ? 1 : 0))
    }

    /// Sets a column NULL.
    @inline(__always)
    func setNull(_ column: Int) {
        nulls[count] |= 1 << UInt64(column)
    }

    /// Sets a text column, or NULL for nil.
    func set(_ column: Int, _ value: String?) {
        guard let value else { return setNull(column) }
        texts[count &* columns &+ column] = value
    }

    /// Ends the row being added; inserts the group once it is full.
    @inline(__always)
    func endRow() throws(TraceSQLError) {
        count &+= 1
        if count == Self.groupRows { try flush() }
    }

    /// Inserts the rows buffered.
    func flush() throws(TraceSQLError) {
        guard count > 0 else { return }
        let rows = count
        count = 0
        let statement = rows == Self.groupRows
            ? group : try connection.prepare(Self.sql(table: table, columns: names, rows: rows))
        var parameter: Int32 = 1
        for row in 0..<rows {
            let nullColumns = nulls[row]
            nulls[row] = 0
            for column in 0..<columns {
                if nullColumns & (1 << UInt64(column)) != 0 {
                    statement.bindNull(parameter)
                } else if isText[column] {
                    statement.bind(parameter, texts[row * columns + column])
                } else {
                    sqlite3_bind_int64(statement.handle, parameter, integers[row * columns + column])
                }
                parameter += 1
            }
        }
        try statement.run()
    }
}
