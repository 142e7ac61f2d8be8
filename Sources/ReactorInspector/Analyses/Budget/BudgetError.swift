/// Why a budget file cannot be used. Every case names where the problem is,
/// so the CI log points at the line to fix.
public enum BudgetError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file is not valid JSON.
    case syntax(JSONSyntaxError)
    /// A key the budget format does not define, e.g. `computations[0].maxRerun`.
    case unknownKey(path: String, position: PositionedJSON.Position, suggestion: String?)
    /// A value of the wrong JSON type or out of range.
    case invalidValue(path: String, position: PositionedJSON.Position, message: String)
    /// A required key is absent.
    case missingKey(path: String, position: PositionedJSON.Position)

    /// One line: what, where (`path` and `line:column`) and, for a likely typo, the key that was meant.
    public var description: String {
        switch self {
        case .syntax(let error):
            "budget is not valid JSON at line \(error.position.line), column \(error.position.column): \(error.message)"
        case .unknownKey(let path, let position, let suggestion):
            "unknown key \"\(path)\" at line \(position.line), column \(position.column)"
                + (suggestion.map { " (did you mean \"\($0)\"?)" } ?? "")
        case .invalidValue(let path, let position, let message):
            "invalid value for \"\(path)\" at line \(position.line), column \(position.column): \(message)"
        case .missingKey(let path, let position):
            "missing required key \"\(path)\" in the object at line \(position.line), column \(position.column)"
        }
    }
}
