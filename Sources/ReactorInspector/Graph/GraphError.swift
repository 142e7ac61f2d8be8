/// Why a graph could not be built or rendered.
public enum GraphError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `--focus` named no node of the trace.
    case unknownNode(name: String, suggestions: [String])
    /// `--at` was asked but the model holds no snapshot at that time.
    case missingSnapshot(UInt64)
    /// Graphviz could not parse the generated DOT (a bug in the writer).
    case invalidDOT
    /// Graphviz's layout failed.
    case layoutFailed
    /// Graphviz's renderer failed.
    case renderFailed(format: String)

    /// One line saying what went wrong.
    public var description: String {
        switch self {
        case let .unknownNode(name, suggestions):
            let hint = suggestions.isEmpty ? "" : " (did you mean \(suggestions.map { "'\($0)'" }.joined(separator: ", "))?)"
            return "no node named '\(name)' in this trace\(hint)"
        case let .missingSnapshot(time):
            return "no snapshot of the graph at \(DurationText.formatTime(time))"
        case .invalidDOT:
            return "Graphviz rejected the generated graph"
        case .layoutFailed:
            return "Graphviz could not lay out the graph"
        case let .renderFailed(format):
            return "Graphviz could not render the graph as \(format)"
        }
    }
}
