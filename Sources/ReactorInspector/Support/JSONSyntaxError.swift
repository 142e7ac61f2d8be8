/// A JSON text that does not parse, with the line and column where it went wrong.
public struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, e.g. `expected ',' or '}' after an object member`.
    public var message: String
    /// Where the parser stopped.
    public var position: PositionedJSON.Position

    /// Creates an error.
    public init(_ message: String, at position: PositionedJSON.Position) {
        self.message = message
        self.position = position
    }

    /// `line 3, column 14: expected ...`.
    public var description: String { "line \(position.line), column \(position.column): \(message)" }
}
