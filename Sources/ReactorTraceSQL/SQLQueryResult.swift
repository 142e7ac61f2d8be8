import Foundation
import ReactorInspector

/// The rows a query answered, with its column names, printable as a table, JSON or CSV.
public struct SQLQueryResult: Sendable, Equatable {
    /// The columns' names, in order.
    public let columns: [String]
    /// The rows, each with one value per column.
    public let rows: [[SQLValue]]

    /// The answer as aligned text (names are data: control characters escaped).
    public func table() -> String {
        guard !columns.isEmpty else { return "" }
        let cells = [columns] + rows.map { $0.map { $0.text } }
        let escaped = cells.map { $0.map { TerminalEscaping.escape($0) } }
        var widths = [Int](repeating: 0, count: columns.count)
        for row in escaped { for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) } }
        var out = ""
        for (number, row) in escaped.enumerated() {
            var line = ""
            for (index, cell) in row.enumerated() {
                let numeric = number > 0 && Self.isNumeric(rows[number - 1][index])
                let padding = String(repeating: " ", count: widths[index] - cell.count)
                let isLast = index == row.count - 1
                line += numeric ? padding + cell : cell + (isLast ? "" : padding)
                if !isLast { line += "  " }
            }
            out += line + "\n"
            if number == 0 { out += widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ") + "\n" }
        }
        out += "(\(rows.count) \(rows.count == 1 ? "row" : "rows"))\n"
        return out
    }

    /// The answer as a JSON array of objects keyed by column name.
    public func json() -> String {
        guard !rows.isEmpty else { return "[]\n" }
        var out = "[\n"
        for (number, row) in rows.enumerated() {
            out += "  {"
            for (index, value) in row.enumerated() {
                if index > 0 { out += ", " }
                out += JSONText.quoted(columns[index]) + ": "
                switch value {
                case .null: out += "null"
                case let .integer(number): out += String(number)
                case let .real(number): out += number.isFinite ? String(number) : "null"
                case let .text(text): out += JSONText.quoted(text)
                case let .blob(size): out += JSONText.quoted("<\(size) bytes>")
                }
            }
            out += number == rows.count - 1 ? "}\n" : "},\n"
        }
        return out + "]\n"
    }

    /// The answer as CSV (RFC 4180: a header line, fields quoted when they need it, CRLF line ends).
    public func csv() -> String {
        var out = columns.map(Self.csvField).joined(separator: ",") + "\r\n"
        for row in rows { out += row.map { Self.csvField($0.text) }.joined(separator: ",") + "\r\n" }
        return out
    }

    private static func csvField(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    private static func isNumeric(_ value: SQLValue) -> Bool {
        switch value {
        case .integer, .real: true
        default: false
        }
    }
}
