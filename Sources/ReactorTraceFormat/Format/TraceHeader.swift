/// The file header of a trace: format version, clock and when recording began.
public struct TraceHeader: Sendable, Equatable {
    /// The format's major version: readers reject a major they do not know.
    public var major: UInt16
    /// The format's minor version: readers read newer minors, skipping what they do not know.
    public var minor: UInt16
    /// The clock event timestamps come from.
    public var clock: TraceClock
    /// When recording began, in nanoseconds since the Unix epoch (wall clock).
    public var wallStartNanoseconds: UInt64
    /// When recording began on the monotonic clock; event timestamps are relative to it.
    public var monotonicStartNanoseconds: UInt64
    /// The recording process's id.
    public var processID: UInt32
    /// The header's length in bytes (44 in version 1.0; longer in later minors).
    public var length: Int

    /// A header with the given fields.
    public init(major: UInt16 = TraceFormat.majorVersion, minor: UInt16 = TraceFormat.minorVersion,
                clock: TraceClock = .monotonic, wallStartNanoseconds: UInt64, monotonicStartNanoseconds: UInt64,
                processID: UInt32, length: Int = TraceFormat.headerLength) {
        self.major = major
        self.minor = minor
        self.clock = clock
        self.wallStartNanoseconds = wallStartNanoseconds
        self.monotonicStartNanoseconds = monotonicStartNanoseconds
        self.processID = processID
        self.length = length
    }

    /// The header's bytes as version 1.0 lays them out (with `length` ≥ 44,
    /// the extra bytes are zero: how a newer minor's header looks to this reader).
    package func encoded() -> [UInt8] {
        let length = max(self.length, TraceFormat.headerLength)
        var bytes = TraceFormat.magic
        bytes.appendLittleEndian(major)
        bytes.appendLittleEndian(minor)
        bytes.appendLittleEndian(UInt32(length))
        bytes.append(clock.rawValue)
        bytes.append(contentsOf: [0, 0, 0])
        bytes.appendLittleEndian(wallStartNanoseconds)
        bytes.appendLittleEndian(monotonicStartNanoseconds)
        bytes.appendLittleEndian(processID)
        bytes.append(contentsOf: [UInt8](repeating: 0, count: length - 4 - bytes.count))
        bytes.appendLittleEndian(CRC32.checksum(bytes))
        return bytes
    }

    /// Checks the fixed start of a file (its first 16 bytes, or fewer if the
    /// file is shorter) and returns the header length it announces.
    static func validatePrefix(_ prefix: [UInt8], fileLength: Int?) throws(TraceDecodingError) -> Int {
        if prefix.isEmpty { throw .empty }
        let magicCount = min(prefix.count, TraceFormat.magic.count)
        guard prefix[0..<magicCount].elementsEqual(TraceFormat.magic[0..<magicCount]) else { throw .notATrace }
        var reader = ByteReader(prefix)
        guard reader.skip(TraceFormat.magic.count),
              let major = reader.readInteger(as: UInt16.self),
              let minor = reader.readInteger(as: UInt16.self),
              let length = reader.readInteger(as: UInt32.self)
        else { throw .truncatedHeader(bytes: prefix.count, needed: TraceFormat.headerLength) }
        guard major == TraceFormat.majorVersion else { throw .unsupportedVersion(major: major, minor: minor) }
        guard length >= TraceFormat.headerLength, length <= TraceFormat.maxHeaderLength else { throw .corruptHeader }
        return Int(length)
    }

    /// Decodes a whole header (`bytes.count` is the announced length).
    static func decode(_ bytes: [UInt8]) throws(TraceDecodingError) -> TraceHeader {
        guard bytes.count >= TraceFormat.headerLength else {
            throw .truncatedHeader(bytes: bytes.count, needed: TraceFormat.headerLength)
        }
        let stored = bytes.withUnsafeBytes { UInt32(littleEndianBytes: $0.baseAddress! + bytes.count - 4) }
        let computed = bytes.withUnsafeBytes { CRC32.checksum(UnsafeRawBufferPointer(rebasing: $0[0..<bytes.count - 4])) }
        guard stored == computed else { throw .corruptHeader }
        var reader = ByteReader(bytes)
        guard reader.skip(TraceFormat.magic.count),
              let major = reader.readInteger(as: UInt16.self),
              let minor = reader.readInteger(as: UInt16.self),
              reader.skip(4),
              let clock = reader.readByte(),
              reader.skip(3),
              let wall = reader.readInteger(as: UInt64.self),
              let monotonic = reader.readInteger(as: UInt64.self),
              let processID = reader.readInteger(as: UInt32.self)
        else { throw .corruptHeader }
        return TraceHeader(major: major, minor: minor, clock: TraceClock(rawValue: clock),
                           wallStartNanoseconds: wall, monotonicStartNanoseconds: monotonic,
                           processID: processID, length: bytes.count)
    }
}
