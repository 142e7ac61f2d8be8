import ReactorTraceFormat

/// A trace file that could not be read at all (missing, empty, foreign, cut
/// inside its header…).
public struct TraceFileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file.
    public let path: String
    /// What the reader found.
    public let reason: TraceDecodingError

    /// Creates an error.
    public init(path: String, reason: TraceDecodingError) {
        self.path = path
        self.reason = reason
    }

    /// One line for a user.
    public var description: String {
        if case .unreadable = reason { return reason.description }
        return "\(path): \(reason)"
    }
}
