import ReactorTraceFormat
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension TraceTermination {
    /// The ending's name in reports: `stopped`, `runtime-error`, `signal SIGSEGV`, `unknown 7`.
    public var label: String {
        switch self {
        case .stopped: "stopped"
        case .runtimeError: "runtime-error"
        case let .signal(number): "signal " + Self.signalName(number)
        case let .unknown(code): "unknown \(code)"
        }
    }

    /// The usual name of a fatal signal (`SIGSEGV`), else its number.
    static func signalName(_ number: Int32) -> String {
        switch number {
        case SIGSEGV: "SIGSEGV"
        case SIGBUS: "SIGBUS"
        case SIGILL: "SIGILL"
        case SIGTRAP: "SIGTRAP"
        case SIGABRT: "SIGABRT"
        case SIGFPE: "SIGFPE"
        default: "\(number)"
        }
    }
}
