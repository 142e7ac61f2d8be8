/// What a bounded recording overwrote (format 1.2, the history block): the file keeps
/// the most recent events within its bound, and says here what came before them.
public struct TraceHistory: Sendable, Equatable, Codable {
    /// The recording's bound in bytes (`TraceRecorder.Options.maxBytes`).
    public var maxBytes: UInt64
    /// Events recorded before the oldest event the file holds, and no longer in it
    /// (restated definitions not counted).
    public var eventsOverwritten: UInt64
    /// The chunks those events were written in.
    public var chunksOverwritten: UInt64
    /// The time of the first overwritten event, ns since the trace's start (0 when none).
    public var firstOverwrittenNanoseconds: UInt64
    /// The time of the last overwritten event, ns since the trace's start (0 when none).
    public var lastOverwrittenNanoseconds: UInt64
    /// How many times the recorder dropped its oldest events.
    public var compactions: UInt32

    /// A history with the given fields.
    public init(maxBytes: UInt64, eventsOverwritten: UInt64 = 0, chunksOverwritten: UInt64 = 0,
                firstOverwrittenNanoseconds: UInt64 = 0, lastOverwrittenNanoseconds: UInt64 = 0, compactions: UInt32 = 0) {
        self.maxBytes = maxBytes
        self.eventsOverwritten = eventsOverwritten
        self.chunksOverwritten = chunksOverwritten
        self.firstOverwrittenNanoseconds = firstOverwrittenNanoseconds
        self.lastOverwrittenNanoseconds = lastOverwrittenNanoseconds
        self.compactions = compactions
    }

    /// The length of the payload this version writes.
    static let payloadLength = 44

    /// The history block's payload (docs/TRACE_FORMAT.md, "History block").
    package func encodedPayload() -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.appendLittleEndian(maxBytes)
        bytes.appendLittleEndian(eventsOverwritten)
        bytes.appendLittleEndian(chunksOverwritten)
        bytes.appendLittleEndian(firstOverwrittenNanoseconds)
        bytes.appendLittleEndian(lastOverwrittenNanoseconds)
        bytes.appendLittleEndian(compactions)
        return bytes
    }

    /// The history a block's payload holds (later fields of a newer minor are ignored); nil when short.
    package init?(payload: UnsafeBufferPointer<UInt8>) {
        guard payload.count >= Self.payloadLength, let base = UnsafeRawPointer(payload.baseAddress) else { return nil }
        func u64(_ offset: Int) -> UInt64 {
            UInt64(UInt32(littleEndianBytes: base + offset)) | UInt64(UInt32(littleEndianBytes: base + offset + 4)) << 32
        }
        self.init(maxBytes: u64(0), eventsOverwritten: u64(8), chunksOverwritten: u64(16),
                  firstOverwrittenNanoseconds: u64(24), lastOverwrittenNanoseconds: u64(32),
                  compactions: UInt32(littleEndianBytes: base + 40))
    }
}
