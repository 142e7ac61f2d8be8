/// How a recording ended, as its end block says (docs/TRACE_FORMAT.md, "End block").
public enum TraceTermination: Sendable, Equatable {
    /// `stop()` was called (explicitly, or at `exit()`).
    case stopped
    /// The runtime stopped the process for a programming error it reported
    /// (a computed value that reads itself in its first computation).
    case runtimeError
    /// The process received this signal: a fatal one (SIGSEGV, SIGBUS, SIGILL, SIGTRAP,
    /// SIGABRT), or SIGINT or SIGTERM asking it to stop.
    case signal(Int32)
    /// The file is a snapshot of a recording that went on (`TraceRecorder.snapshot(to:)`, 1.2).
    case snapshot
    /// A code this reader does not know (a newer recorder).
    case unknown(UInt32)

    /// The code written in the end block: 0 stopped, 1 runtime error, 2 snapshot, 0x100 + N signal N.
    public var code: UInt32 {
        switch self {
        case .stopped: 0
        case .runtimeError: 1
        case .snapshot: 2
        case let .signal(number): 0x100 | UInt32(truncatingIfNeeded: number) & 0xFF
        case let .unknown(code): code
        }
    }

    /// The termination a code stands for.
    public init(code: UInt32) {
        switch code {
        case 0: self = .stopped
        case 1: self = .runtimeError
        case 2: self = .snapshot
        case 0x100..<0x200: self = .signal(Int32(code & 0xFF))
        default: self = .unknown(code)
        }
    }

    /// True unless the recording was stopped normally (or the file is a snapshot).
    public var isAbnormal: Bool { self != .stopped && self != .snapshot }
}
