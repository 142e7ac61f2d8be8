/// One cell of a query's answer.
public enum SQLValue: Sendable, Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    /// A blob, shown by its size (the trace tables hold none).
    case blob(Int)

    /// The cell as table or CSV text (empty for NULL).
    public var text: String {
        switch self {
        case .null: ""
        case let .integer(value): String(value)
        case let .real(value): String(value)
        case let .text(value): value
        case let .blob(size): "<\(size) bytes>"
        }
    }
}
