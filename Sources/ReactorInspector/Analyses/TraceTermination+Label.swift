import ReactorTraceFormat
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension TraceTermination {
    /// The ending's name in reports: `stopped`, `runtime-error`, `snapshot`, `signal SIGSEGV`, `unknown 7`.
    public var label: String {
        switch self {
        case .stopped: "stopped"
        case .runtimeError: "runtime-error"
        case .snapshot: "snapshot"
        case let .signal(number): "signal " + Self.signalName(number)
        case let .unknown(code): "unknown \(code)"
        }
    }

    /// How the recording ended, for a status line: `stopped`, `signal 15 (SIGTERM)`,
    /// `runtime-error`, `snapshot`.
    public var endedText: String {
        if case let .signal(number) = self { return "signal \(number) (\(Self.signalName(number)))" }
        return label
    }

    /// True for a signal that asks the process to stop (SIGINT, SIGTERM) rather than a crash.
    public var isStopRequest: Bool {
        if case let .signal(number) = self { return number == SIGINT || number == SIGTERM }
        return false
    }

    /// The usual name of a signal the recorder handles (`SIGSEGV`), else its number.
    static func signalName(_ number: Int32) -> String {
        switch number {
        case SIGSEGV: "SIGSEGV"
        case SIGBUS: "SIGBUS"
        case SIGILL: "SIGILL"
        case SIGTRAP: "SIGTRAP"
        case SIGABRT: "SIGABRT"
        case SIGFPE: "SIGFPE"
        case SIGINT: "SIGINT"
        case SIGTERM: "SIGTERM"
        default: "\(number)"
        }
    }
}
