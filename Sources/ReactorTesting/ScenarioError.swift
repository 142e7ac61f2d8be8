/// Why a scenario could not be recorded or checked.
public enum ScenarioError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `record` was called inside another recording's body.
    case nestedRecording
    /// Another tracer was installed while the body ran (`TraceRecorder.start`,
    /// `ReactorTracing.install`), so the recording misses events.
    case tracerReplaced
    /// The recorder could not write its temporary trace.
    case recordingFailed(String)
    /// The recorded trace could not be read back.
    case unreadableTrace(String)
    /// The budget file could not be read.
    case unreadableBudget(path: String, reason: String)
    /// The budget is not valid (the parser's message, with the file's name when it came from one).
    case invalidBudget(String)

    /// One line.
    public var description: String {
        switch self {
        case .nestedRecording: "a scenario cannot be recorded inside another scenario's body"
        case .tracerReplaced: "another tracer was installed while the scenario recorded; its counts would be short"
        case .recordingFailed(let reason): "cannot record the scenario: \(reason)"
        case .unreadableTrace(let reason): "cannot read the recorded scenario back: \(reason)"
        case .unreadableBudget(let path, let reason): "\(path): \(reason)"
        case .invalidBudget(let message): message
        }
    }
}
