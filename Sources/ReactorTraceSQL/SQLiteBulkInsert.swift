import CSQLite

/// Inserts blocks of rows into one table many at a time: one prepared
/// multi-row `INSERT … VALUES (…), (…) …` of ``groupRows`` rows, so SQLite's
/// per-statement work (opening the table, the transaction check, resetting)
/// is paid once a group instead of once a row; the rows that do not fill a
/// group get a statement of their own size. Internal storage of
/// ``TableInsertThread``, used by its thread alone.
final class SQLiteBulkInsert {
    /// Rows per statement: enough to spread the per-statement cost, few
    /// enough that the statement stays small.
    static let groupRows = 64

    private let connection: SQLiteConnection
    private let table: String
    private let names: [String]
    /// Which columns hold text (the rest hold integers).
    let isText: [Bool]
    private let group: SQLiteStatement

    /// Prepares the insert into `table` of `columns` (names, in binding
    /// order, at most 64), of which `textColumns` hold text.
    init(connection: SQLiteConnection, table: String, columns names: [String],
         textColumns: Set<String> = []) throws(TraceSQLError) {
        precondition(names.count <= 64)
        self.connection = connection
        self.table = table
        self.names = names
        isText = names.map { textColumns.contains($0) }
        group = try connection.prepare(Self.sql(table: table, columns: names, rows: Self.groupRows))
    }

    private static func sql(table: String, columns: [String], rows: Int) -> String {
        let row = "(" + repeatElement("?", count: columns.count).joined(separator: ",") + ")"
        return "INSERT INTO \(table)(\(columns.joined(separator: ", "))) VALUES "
            + repeatElement(row, count: rows).joined(separator: ",")
    }

    /// An empty block of this table's rows, numbered `table`.
    func block(table number: Int) -> RowBlock {
        RowBlock(table: number, columns: names.count, hasText: isText.contains(true))
    }

    /// Inserts the rows of `block`.
    func insert(_ block: borrowing RowBlock) throws(TraceSQLError) {
        var first = 0
        while first < block.count {
            let rows = min(Self.groupRows, block.count - first)
            let statement = rows == Self.groupRows
                ? group : try connection.prepare(Self.sql(table: table, columns: names, rows: rows))
            var parameter: Int32 = 1
            for row in first..<(first + rows) {
                for column in 0..<block.columns {
                    if block.isNull(row, column) {
                        statement.bindNull(parameter)
                    } else if isText[column] {
                        statement.bind(parameter, block.texts[row * block.columns + column])
                    } else {
                        sqlite3_bind_int64(statement.handle, parameter, block.integers[row * block.columns + column])
                    }
                    parameter += 1
                }
            }
            try statement.run()
            first += rows
        }
    }
}
