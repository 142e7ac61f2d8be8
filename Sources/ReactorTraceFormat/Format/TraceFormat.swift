/// Constants of the binary trace format, specified in docs/TRACE_FORMAT.md.
/// The recorder and the reader share them so the two cannot drift apart.
public enum TraceFormat {
    /// The eight bytes every trace starts with: `89 52 58 54 52 0D 0A 1A`
    /// (PNG-style: a high byte, "RXTR", CR LF and ^Z catch text-mode mangling).
    public static let magic: [UInt8] = [0x89, 0x52, 0x58, 0x54, 0x52, 0x0D, 0x0A, 0x1A]
    /// The major version this library writes and reads; a file with another major is rejected.
    public static let majorVersion: UInt16 = 1
    /// The minor version this library writes; files with a newer minor are read,
    /// skipping what this version does not know.
    public static let minorVersion: UInt16 = 3
    /// The size of the file header this version writes.
    public static let headerLength = 44
    /// The largest header length a reader accepts (room for future minor versions).
    public static let maxHeaderLength = 4096
    /// The size of every block header.
    public static let blockHeaderLength = 28
    /// The largest block payload a reader accepts; larger lengths mean damage.
    public static let maxPayloadLength = 1 << 20
    /// The longest string the recorder writes, in UTF-8 bytes (longer ones are cut at a character boundary).
    public static let maxStringLength = 4096

    /// Block type of an event chunk: the bytes "CHNK".
    public static let chunkBlock: UInt32 = 0x4B4E_4843
    /// Block type of the end block written by a clean stop: the bytes "TEND".
    public static let endBlock: UInt32 = 0x444E_4554
    /// An end block's payload length in format 1.0: events, chunks, duration, threads.
    public static let endBlockLength10 = 28
    /// An end block's payload length in format 1.1: the 1.0 fields, events dropped and the termination.
    /// A payload between the two lengths is corrupt; a longer one holds fields a newer minor adds.
    public static let endBlockLength11 = 40
    /// Chunk flag: the chunk starts a fresh encoding context (registers and string table reset).
    public static let freshContextFlag: UInt8 = 0x01
    /// Chunk flag (1.2): the chunk restates definitions (node creations, names, sites, latest
    /// values) from history a bounded recording overwrote; its events carry their original times.
    public static let definitionsFlag: UInt8 = 0x02
    /// Block type of the metadata block (1.2): the bytes "TMET". Commit, scenario, app and
    /// the app's own keys; right after the header.
    public static let metadataBlock: UInt32 = 0x5445_4D54
    /// Block type of the history block (1.2): the bytes "THST". A bounded recording's bound and
    /// what it overwrote; after the metadata block.
    public static let historyBlock: UInt32 = 0x5453_4854

    /// The first event tag whose events are length-prefixed (extensions a reader may skip).
    public static let firstExtensionTag: UInt8 = 64
    /// The extension tag of a `value` event (1.1): a node's value, with its own
    /// register and value table, so that a 1.0 reader skips it safely.
    public static let valueTag: UInt8 = 64
    /// The extension tag of a `site` event (1.1): a node's creation site or an
    /// action's call site, with its own site table, skipped by a 1.0 reader.
    public static let siteTag: UInt8 = 65
    /// Extension tag of a **clock** event (1.3): its body is one varint, a timestamp
    /// (nanoseconds since the trace's start), and it changes no register. The recorder
    /// writes one before a thread's first event when that event has no time of its own,
    /// so that no event reads as the trace's start; a reader that skips it reads every
    /// other time the same.
    public static let clockTag: UInt8 = 67
    /// Extension tag of the clock event of 1.1 and 1.2 writers: a `time` field that
    /// sets the register `T` (the one extension event that does). Read, no longer written.
    public static let registerClockTag: UInt8 = 66
}

/// The clock a trace's timestamps come from (a raw byte, so that a newer minor
/// version's clock still reads).
public struct TraceClock: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The clock's code in the header.
    public var rawValue: UInt8

    /// A clock from its code in the header.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// `clock_gettime(CLOCK_MONOTONIC)`, nanoseconds.
    public static let monotonic = TraceClock(rawValue: 1)
    /// The CPU's cycle counter (x86-64 TSC), scaled to nanoseconds by a factor
    /// calibrated against `CLOCK_MONOTONIC` when recording started.
    public static let calibratedTicks = TraceClock(rawValue: 2)

    /// The clock's name as printed in reports.
    public var description: String {
        switch self {
        case .monotonic: "CLOCK_MONOTONIC"
        case .calibratedTicks: "TSC calibrated to CLOCK_MONOTONIC"
        default: "clock #\(rawValue)"
        }
    }
}
