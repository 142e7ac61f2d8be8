/// Why a recording could not start, or a snapshot of it could not be written.
public enum TraceRecorderError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Another recording is running (to `path`); stop it first.
    case alreadyRecording(path: String)
    /// The trace file could not be created or written.
    case cannotCreate(path: String, reason: String)
    /// The snapshot file could not be created or written.
    case cannotSnapshot(path: String, reason: String)
    /// The recording has stopped: there is nothing to snapshot.
    case notRecording

    /// One line for a user.
    public var description: String {
        switch self {
        case let .alreadyRecording(path): "a trace is already being recorded to \(path); stop it first"
        case let .cannotCreate(path, reason): "cannot create the trace file \(path): \(reason)"
        case let .cannotSnapshot(path, reason): "cannot write the snapshot \(path): \(reason)"
        case .notRecording: "the recording has stopped: there is nothing to snapshot"
        }
    }
}
