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
    /// The installed Graphviz has no plugin for this layout engine.
    case layoutEngineUnavailable(String)
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
        case let .layoutEngineUnavailable(engine):
            let hint = engine == "nop"
                ? " (it draws graphs too large for dot: install Graphviz's neato_layout plugin, or draw less with --top N or --focus NAME)"
                : ""
            return "Graphviz has no '\(engine)' layout engine\(hint)"
        case let .renderFailed(format):
            return "Graphviz could not render the graph as \(format)"
        }
    }
}
