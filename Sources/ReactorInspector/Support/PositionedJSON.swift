/// A JSON value that remembers where it was written, so a budget error can
/// name the line and column of the offending key or value.
public struct PositionedJSON: Sendable, Equatable {
    /// Where a token starts in the source text (1-based line and column, in characters).
    public struct Position: Sendable, Equatable, CustomStringConvertible {
        /// The 1-based line.
        public var line: Int
        /// The 1-based column, counted in Unicode scalars.
        public var column: Int
        /// Creates a position.
        public init(line: Int, column: Int) {
            self.line = line
            self.column = column
        }
        /// `line:column`.
        public var description: String { "\(line):\(column)" }
    }

    /// One member of an object, with the position of its key.
    public struct Member: Sendable, Equatable {
        /// The key as written (after unescaping).
        public var key: String
        /// Where the key starts.
        public var keyPosition: Position
        /// The member's value.
        public var value: PositionedJSON
    }

    /// The shape of a value.
    public indirect enum Value: Sendable, Equatable {
        /// `null`.
        case null
        /// `true` or `false`.
        case bool(Bool)
        /// A number (JSON does not tell integers apart).
        case number(Double)
        /// A string, unescaped.
        case string(String)
        /// An array of positioned elements.
        case array([PositionedJSON])
        /// Members in source order (duplicates are rejected by the parser).
        case object([Member])
    }

    /// The value.
    public var value: Value
    /// Where the value starts.
    public var position: Position

    /// Creates a value at a position.
    public init(_ value: Value, at position: Position) {
        self.value = value
        self.position = position
    }

    /// The JSON type name used in error messages: `object`, `array`, `string`, `number`, `boolean`, `null`.
    public var typeName: String {
        switch value {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}
