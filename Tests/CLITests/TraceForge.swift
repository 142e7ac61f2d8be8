import ReactorTrace

/// Writes trace bytes by hand (docs/TRACE_FORMAT.md), for the fuzz harness's
/// regression inputs: values a recorder never writes, with valid checksums.
struct TraceForge {
    private(set) var bytes: [UInt8]

    /// A version 1.1 header.
    init() {
        var header = TraceFormat.magic
        Self.append(&header, UInt16(1))
        Self.append(&header, UInt16(1))
        Self.append(&header, UInt32(44))
        header += [1, 0, 0, 0]
        Self.append(&header, UInt64(1_700_000_000_000_000_000))
        Self.append(&header, UInt64(0))
        Self.append(&header, UInt32(42))
        Self.append(&header, CRC32.checksum(header))
        bytes = header
    }

    /// A chunk of `events` (each an encoded event: see the helpers below), a fresh context unless `continuing`.
    mutating func chunk(thread: UInt32, sequence: UInt32 = 0, continuing: Bool = false, _ events: [[UInt8]]) {
        block(type: TraceFormat.chunkBlock, thread: thread, sequence: sequence, count: UInt32(events.count),
              flags: continuing ? 0 : TraceFormat.freshContextFlag, payload: events.flatMap { $0 })
    }

    /// The end block (format 1.1: with the lost-events count and the termination).
    mutating func end(events: UInt64, chunks: UInt64, durationNanoseconds: UInt64, threads: UInt32,
                      lostEvents: UInt64 = 0) {
        var payload: [UInt8] = []
        Self.append(&payload, events)
        Self.append(&payload, chunks)
        Self.append(&payload, durationNanoseconds)
        Self.append(&payload, threads)
        Self.append(&payload, lostEvents)
        Self.append(&payload, UInt32(0))
        block(type: TraceFormat.endBlock, thread: 0, sequence: 0, count: 0, flags: 0, payload: payload)
    }

    private mutating func block(type: UInt32, thread: UInt32, sequence: UInt32, count: UInt32, flags: UInt8, payload: [UInt8]) {
        var header: [UInt8] = []
        Self.append(&header, type)
        Self.append(&header, UInt32(payload.count))
        Self.append(&header, thread)
        Self.append(&header, sequence)
        Self.append(&header, count)
        header += [flags, 0, 0, 0]
        Self.append(&header, CRC32.checksum(header + payload))
        bytes += header + payload
    }

    private static func append<Value: FixedWidthInteger>(_ bytes: inout [UInt8], _ value: Value) {
        withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
    }

    static func varint(_ value: UInt64) -> [UInt8] {
        var value = value, out: [UInt8] = []
        while value >= 0x80 {
            out.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        return out + [UInt8(value)]
    }

    /// The zigzag code of the step from register value `from` to `to`.
    static func delta(_ to: UInt64, from: UInt64) -> [UInt8] {
        let difference = Int64(bitPattern: to &- from)
        return varint(UInt64(bitPattern: (difference << 1) ^ (difference >> 63)))
    }

    /// `nodeCreated` of a computation named `name` (a new string-table entry), the N register going `from` → `id`.
    static func created(_ id: UInt64, kind: UInt8 = 1, name: String, from: UInt64 = 0, time: UInt64) -> [UInt8] {
        [1, kind] + delta(id, from: from) + [0] + varint(UInt64(name.utf8.count)) + Array(name.utf8) + [0] + varint(time)
    }

    static func flushBegan(time: UInt64) -> [UInt8] { [11] + varint(time) }
    static func flushEnded(time: UInt64) -> [UInt8] { [12] + varint(time) }
}
