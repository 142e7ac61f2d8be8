/// Why a trace, or part of one, could not be read.
public enum TraceDecodingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file is empty.
    case empty
    /// The file does not start with the trace magic: it is not a Reactor trace.
    case notATrace
    /// The file's major version is not one this reader knows.
    case unsupportedVersion(major: UInt16, minor: UInt16)
    /// The file ends inside the block that starts at `offset`.
    case truncated(offset: Int)
    /// The file ends inside its header: it holds `bytes` bytes, the header needs `needed`
    /// (at least ``TraceFormat/headerLength`` until the header says its length).
    case truncatedHeader(bytes: Int, needed: Int)
    /// The header's fields or checksum are wrong.
    case corruptHeader
    /// The block at `offset` has a bad checksum or does not decode.
    case corruptChunk(offset: Int)
    /// Every block up to `offset` read, but there is no end block: the recording
    /// process stopped without `TraceRecorder.stop()` (a crash or a kill).
    case missingEnd(offset: Int)
    /// The file could not be opened or read.
    case unreadable(path: String, reason: String)

    /// One line for a user.
    public var description: String {
        switch self {
        case .empty:
            "the file is empty, not a Reactor trace"
        case .notATrace:
            "not a Reactor trace (the file does not start with the trace magic bytes)"
        case let .unsupportedVersion(major, minor):
            "unsupported trace format version \(major).\(minor): this reader reads version \(TraceFormat.majorVersion).x"
        case let .truncated(offset):
            "the trace is truncated: it ends inside the block that starts at byte \(offset)"
        case let .truncatedHeader(bytes, needed):
            "the trace is truncated inside its header: the file has \(bytes) byte\(bytes == 1 ? "" : "s"), the header needs \(needed)"
        case .corruptHeader:
            "the trace header is corrupt (bad length or checksum)"
        case let .corruptChunk(offset):
            "the trace is corrupt from byte \(offset) on (bad checksum or undecodable chunk)"
        case let .missingEnd(offset):
            "the trace has no end block (recording was not stopped: crash or kill); read up to byte \(offset)"
        case let .unreadable(path, reason):
            "cannot read \(path): \(reason)"
        }
    }
}
