/// Why `state` or `history` cannot answer.
public enum StateError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The trace could not be read at all.
    case file(TraceFileError)
    /// `--at` names no usable moment.
    case moment(TraceMomentError)
    /// The trace was recorded with value capture off.
    case noValues(path: String)
    /// No node of the trace has the name.
    case unknownName(String, suggestions: [String])

    /// One line for the user.
    public var description: String {
        switch self {
        case let .file(error): error.description
        case let .moment(error): error.description
        case let .noValues(path):
            "\(TerminalEscaping.escape(path)): this trace has no values: record with REACTOR_TRACE_VALUES=N (or TraceRecorder.Options(values: .described(maxLength: N)))"
        case let .unknownName(name, suggestions):
            "no node named '\(TerminalEscaping.escape(name))' in the trace"
                + (suggestions.isEmpty ? "" : " (did you mean \(suggestions.map { "'\(TerminalEscaping.escape($0))'" }.joined(separator: ", "))?)")
        }
    }
}
