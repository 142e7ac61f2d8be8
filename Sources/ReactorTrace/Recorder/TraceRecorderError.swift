/// Why a recording could not start.
public enum TraceRecorderError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Another recording is running (to `path`); stop it first.
    case alreadyRecording(path: String)
    /// The trace file could not be created or written.
    case cannotCreate(path: String, reason: String)

    /// One line for a user.
    public var description: String {
        switch self {
        case let .alreadyRecording(path): "a trace is already being recorded to \(path); stop it first"
        case let .cannotCreate(path, reason): "cannot create the trace file \(path): \(reason)"
        }
    }
}
