/// How a recording ended, as its end block says (docs/TRACE_FORMAT.md, "End block").
public enum TraceTermination: Sendable, Equatable {
    /// `stop()` was called (explicitly, or at `exit()`).
    case stopped
    /// The runtime stopped the process for a programming error it reported
    /// (a computed value that reads itself in its first computation).
    case runtimeError
    /// The process received this fatal signal (SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT).
    case signal(Int32)
    /// A code this reader does not know (a newer recorder).
    case unknown(UInt32)

    /// The code written in the end block: 0 stopped, 1 runtime error, 0x100 + N signal N.
    public var code: UInt32 {
        switch self {
        case .stopped: 0
        case .runtimeError: 1
        case let .signal(number): 0x100 | UInt32(truncatingIfNeeded: number) & 0xFF
        case let .unknown(code): code
        }
    }

    /// The termination a code stands for.
    public init(code: UInt32) {
        switch code {
        case 0: self = .stopped
        case 1: self = .runtimeError
        case 0x100..<0x200: self = .signal(Int32(code & 0xFF))
        default: self = .unknown(code)
        }
    }

    /// True unless the recording was stopped normally.
    public var isAbnormal: Bool { self != .stopped }
}
