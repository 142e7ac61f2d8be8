import CSQLite

/// A failure of the SQL layer, as one line.
public struct TraceSQLError: Error, CustomStringConvertible, Sendable {
    /// What went wrong.
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}

/// One SQLite connection, used from one thread. Internal storage of
/// ``TraceDatabase``.
final class SQLiteConnection {
    let handle: OpaquePointer

    /// Opens (creating) the database at `path`; ":memory:" for one in memory.
    init(path: String) throws(TraceSQLError) {
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let status = sqlite3_open_v2(path, &handle, flags, nil)
        guard status == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close(handle)
            throw TraceSQLError("cannot open the database \(path): \(message)")
        }
        self.handle = handle
        sqlite3_extended_result_codes(handle, 1)
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    var lastError: String { String(cString: sqlite3_errmsg(handle)) }

    /// Runs statements that return no rows.
    func execute(_ sql: String) throws(TraceSQLError) {
        var message: UnsafeMutablePointer<CChar>?
        guard sqlite3_exec(handle, sql, nil, nil, &message) == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? lastError
            sqlite3_free(message)
            throw TraceSQLError(text)
        }
    }

    /// Prepares one statement.
    func prepare(_ sql: String) throws(TraceSQLError) -> SQLiteStatement {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw TraceSQLError(lastError)
        }
        return SQLiteStatement(statement, connection: self)
    }
}

/// A prepared statement: bind, step, read columns.
final class SQLiteStatement {
    let handle: OpaquePointer
    private let connection: SQLiteConnection
    /// SQLite copies bound text (SQLITE_TRANSIENT).
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    init(_ handle: OpaquePointer, connection: SQLiteConnection) {
        self.handle = handle
        self.connection = connection
    }

    deinit {
        sqlite3_finalize(handle)
    }

    @inline(__always)
    func bind(_ index: Int32, _ value: Int64) {
        sqlite3_bind_int64(handle, index, value)
    }

    @inline(__always)
    func bind(_ index: Int32, _ value: UInt64) {
        sqlite3_bind_int64(handle, index, Int64(bitPattern: value))
    }

    /// Binds NULL for nil.
    @inline(__always)
    func bind(_ index: Int32, _ value: UInt64?) {
        if let value { bind(index, value) } else { sqlite3_bind_null(handle, index) }
    }

    @inline(__always)
    func bind(_ index: Int32, _ value: Int) {
        sqlite3_bind_int64(handle, index, Int64(value))
    }

    @inline(__always)
    func bind(_ index: Int32, _ value: Bool) {
        sqlite3_bind_int64(handle, index, value ? 1 : 0)
    }

    func bind(_ index: Int32, _ value: String?) {
        guard let value else {
            sqlite3_bind_null(handle, index)
            return
        }
        var text = value
        text.withUTF8 { bytes in
            _ = bytes.withMemoryRebound(to: CChar.self) {
                sqlite3_bind_text(handle, index, $0.baseAddress, Int32($0.count), Self.transient)
            }
        }
    }

    func bindNull(_ index: Int32) {
        sqlite3_bind_null(handle, index)
    }

    /// Runs an insert (or any statement without rows) and resets it for the next row.
    @inline(__always)
    func run() throws(TraceSQLError) {
        let status = sqlite3_step(handle)
        sqlite3_reset(handle)
        guard status == SQLITE_DONE else { throw TraceSQLError(connection.lastError) }
    }

    /// Steps once: true while there is a row.
    func step() throws(TraceSQLError) -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw TraceSQLError(connection.lastError)
        }
    }

    var columnCount: Int32 { sqlite3_column_count(handle) }

    func columnName(_ index: Int32) -> String {
        sqlite3_column_name(handle, index).map { String(cString: $0) } ?? "column\(index + 1)"
    }

    func value(_ index: Int32) -> SQLValue {
        switch sqlite3_column_type(handle, index) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, index))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(handle, index))
        case SQLITE_TEXT:
            // By length: a text may hold NUL bytes.
            let count = Int(sqlite3_column_bytes(handle, index))
            guard let bytes = sqlite3_column_text(handle, index) else { return .text("") }
            return .text(String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            return .blob(Int(sqlite3_column_bytes(handle, index)))
        default: return .null
        }
    }
}
