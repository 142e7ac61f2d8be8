/// Rows of one table on their way from the import pass to SQLite: integers,
/// texts (text columns only) and NULLs, `columns` a row, up to ``capacity`` rows.
struct RowBlock: Sendable {
    /// Rows a block holds: 16 of ``SQLiteBulkInsert``'s statements.
    static let capacity = SQLiteBulkInsert.groupRows * 16

    /// Which table (``TableInsertThread``'s order).
    let table: Int
    /// Columns a row.
    let columns: Int
    /// The rows' integers.
    private(set) var integers: [Int64]
    /// The rows' texts (empty for a table without text columns).
    private(set) var texts: [String?]
    /// Per row, a bit per column that is NULL.
    private(set) var nulls: [UInt64]
    /// Rows held.
    private(set) var count = 0

    /// An empty block for `table`, of `columns` columns (at most 64), `hasText` when some hold text.
    init(table: Int, columns: Int, hasText: Bool) {
        self.table = table
        self.columns = columns
        integers = [Int64](repeating: 0, count: Self.capacity * columns)
        texts = hasText ? [String?](repeating: nil, count: Self.capacity * columns) : []
        nulls = [UInt64](repeating: 0, count: Self.capacity)
    }

    /// An empty block for the same table.
    func emptied() -> RowBlock { RowBlock(table: table, columns: columns, hasText: !texts.isEmpty) }

    var isFull: Bool { count == Self.capacity }

    /// Sets column `column` of the row being added.
    @inline(__always)
    mutating func set(_ column: Int, _ value: Int64) {
        integers[count &* columns &+ column] = value
    }

    @inline(__always)
    mutating func set(_ column: Int, _ value: UInt64) {
        set(column, Int64(bitPattern: value))
    }

    @inline(__always)
    mutating func set(_ column: Int, _ value: Int) {
        set(column, Int64(value))
    }

    @inline(__always)
    mutating func set(_ column: Int, _ value: Bool) {
        set(column, Int64(value ? 1 : 0))
    }

    /// Sets a column NULL.
    @inline(__always)
    mutating func setNull(_ column: Int) {
        nulls[count] |= 1 << UInt64(column)
    }

    /// Sets a text column, or NULL for nil.
    mutating func set(_ column: Int, _ value: String?) {
        guard let value else { return setNull(column) }
        texts[count &* columns &+ column] = value
    }

    /// Ends the row being added.
    @inline(__always)
    mutating func endRow() {
        count &+= 1
    }

    /// Whether column `column` of row `row` is NULL.
    @inline(__always)
    func isNull(_ row: Int, _ column: Int) -> Bool {
        nulls[row] & (1 << UInt64(column)) != 0
    }
}
