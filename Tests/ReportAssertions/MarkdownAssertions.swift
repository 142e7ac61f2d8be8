import Testing

/// Structural checks for the Markdown the CI tools write.
public enum MarkdownAssertions {
    /// Every table has a header, a delimiter row of the same width, and rows of that width
    /// (counting unescaped pipes, outside code spans).
    public static func expectWellFormedTables(_ markdown: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var index = 0
        var tables = 0
        while index < lines.count {
            guard lines[index].hasPrefix("|") else { index += 1; continue }
            tables += 1
            let width = cells(lines[index])
            try #require(index + 1 < lines.count, "table without a delimiter row", sourceLocation: sourceLocation)
            let delimiter = lines[index + 1]
            #expect(cells(delimiter) == width, "delimiter row width: \(delimiter)", sourceLocation: sourceLocation)
            #expect(delimiter.allSatisfy { "|-: ".contains($0) }, "bad delimiter row: \(delimiter)", sourceLocation: sourceLocation)
            index += 2
            while index < lines.count, lines[index].hasPrefix("|") {
                #expect(cells(lines[index]) == width, "row width differs: \(lines[index])", sourceLocation: sourceLocation)
                #expect(lines[index].hasSuffix("|"), "row does not end with a pipe: \(lines[index])", sourceLocation: sourceLocation)
                index += 1
            }
        }
        #expect(tables > 0, "no table found", sourceLocation: sourceLocation)
    }

    /// The number of cells in a table row.
    public static func cells(_ row: String) -> Int {
        var count = 0
        var escaped = false
        var previous: Character = " "
        for character in row {
            if escaped { escaped = false; previous = character; continue }
            if character == "\\" { escaped = true; continue }
            if character == "|" { count += 1 }
            previous = character
        }
        _ = previous
        return count - 1
    }
}
