/// Pads cells into aligned columns; widths ignore ANSI escapes.
struct TextColumns {
    enum Alignment { case left, right }

    var alignments: [Alignment]
    var rows: [[String]] = []
    /// The widest a column is padded to: a longer cell (a long name or value)
    /// runs past its column on its own row instead of widening every row.
    static let maximumWidth = 64

    init(_ alignments: [Alignment]) {
        self.alignments = alignments
    }

    mutating func add(_ row: [String]) {
        rows.append(row)
    }

    func render(indent: String = "") -> String {
        var widths = [Int](repeating: 0, count: alignments.count)
        for row in rows {
            for (column, cell) in row.enumerated() where column < widths.count {
                widths[column] = min(Self.maximumWidth, max(widths[column], Self.visibleWidth(cell)))
            }
        }
        var out = ""
        for row in rows {
            var line = indent
            for (column, cell) in row.enumerated() {
                let padding = String(repeating: " ", count: max(0, widths[min(column, widths.count - 1)] - Self.visibleWidth(cell)))
                let isLast = column == row.count - 1
                switch alignments[min(column, alignments.count - 1)] {
                case .left: line += cell + (isLast ? "" : padding)
                case .right: line += padding + cell
                }
                if !isLast { line += "  " }
            }
            out += line + "\n"
        }
        return out
    }

    static func visibleWidth(_ text: String) -> Int {
        var width = 0
        var inEscape = false
        for scalar in text.unicodeScalars {
            if inEscape {
                if scalar == "m" { inEscape = false }
            } else if scalar == "\u{1B}" {
                inEscape = true
            } else {
                width += 1
            }
        }
        return width
    }
}
