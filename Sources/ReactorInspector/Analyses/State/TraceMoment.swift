import ReactorTraceFormat

/// A moment of a trace, as `--at` names it: a trace time (`1.5ms`), the end
/// of the N-th store action (`action:3`, 1-based), or `end`, the trace's last event.
public enum TraceMoment: Sendable, Equatable, CustomStringConvertible {
    /// Trace nanoseconds.
    case time(UInt64)
    /// Right after the N-th action (1-based) ended.
    case afterAction(Int)
    /// The trace's last event: the state it ended in.
    case end

    /// Parses `--at`'s text; nil with the reason when it is neither a time nor `action:N` with N ≥ 1.
    public static func parse(_ text: String) -> Result<TraceMoment, TraceMomentError> {
        if text.lowercased() == "end" { return .success(.end) }
        if text.hasPrefix("action:") {
            let number = text.dropFirst("action:".count)
            guard let count = Int(number), String(count) == number, count >= 0 else {
                return .failure(.malformed(text))
            }
            guard count >= 1 else { return .failure(.actionZero) }
            return .success(.afterAction(count))
        }
        guard let time = DurationText.parse(text) else { return .failure(.malformed(text)) }
        return .success(.time(time))
    }

    /// As `--at` writes it.
    public var description: String {
        switch self {
        case let .time(nanoseconds): DurationText.formatTime(nanoseconds)
        case let .afterAction(count): "action:\(count)"
        case .end: "end"
        }
    }
}

/// Why a moment cannot be used.
public enum TraceMomentError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Neither a time nor `action:N`.
    case malformed(String)
    /// `action:0`: actions count from 1.
    case actionZero
    /// `action:N` beyond the trace's actions.
    case beyondActions(requested: Int, actions: Int)
    /// A time after the trace's last event.
    case pastEnd(requested: UInt64, end: UInt64)

    /// One line for the user.
    public var description: String {
        switch self {
        case let .malformed(text):
            "--at '\(TerminalEscaping.escape(text))' is neither a time (1.5ms, 200us, 2s), action:N nor end"
        case .actionZero:
            "--at action:0: actions count from 1 (action:1 is the moment the first action ended)"
        case let .beyondActions(requested, actions):
            "--at action:\(requested): the trace has \(actions) action\(actions == 1 ? "" : "s")"
        case let .pastEnd(requested, end):
            "--at \(DurationText.formatTime(requested)) is past the end of the trace (its last event is at \(DurationText.formatTime(end)))"
        }
    }
}

/// The end of one store action: the moment `action:N` names (``TraceModelBuilder/actionMoment``).
public struct ActionEnd: Sendable, Equatable {
    /// The store's node id.
    public let store: UInt64
    /// The action's name (`setFilter(_:)`).
    public let name: String
    /// When it began and ended, in trace nanoseconds.
    public let began: UInt64
    /// When it ended (with the flush its end ran): the moment `action:N` names.
    public internal(set) var ended: UInt64
}
