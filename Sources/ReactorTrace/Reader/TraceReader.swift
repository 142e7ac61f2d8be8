import ReactorCore

/// Reads a trace log back as a stream of ``TraceEvent``s.
///
/// ```swift
/// let reader = try TraceReader(path: "app.rtrace")
/// while let event = try reader.next() { … }
/// if let truncation = reader.truncation { print("stopped at byte \(truncation.offset): \(truncation)") }
/// ```
///
/// Memory is bounded by one chunk plus the string tables of the live chunk
/// contexts, whatever the number of events. A damaged or unfinished trace yields
/// every complete, intact chunk and then stops, recording where and why in
/// ``truncation`` (in ``Mode/strict`` mode `next()` throws instead). No byte
/// sequence makes it trap or loop: every length is bounds-checked and capped.
public final class TraceReader: Sequence {
    /// What to do when the log turns out to be damaged after the header.
    public enum Mode: Sendable {
        /// Stop and report through ``truncation`` (the default: read what is readable).
        case lenient
        /// Throw the ``TraceDecodingError`` from `next()`.
        case strict
    }

    /// The file header.
    public let header: TraceHeader
    /// The end block, once read (nil until the end, and for a trace that was not stopped).
    public private(set) var end: TraceEnd?
    /// Where and why reading stopped early, once it has; nil for an intact trace.
    public private(set) var truncation: TraceTruncation?
    /// Events returned so far.
    public var eventsRead: Int { storedEventsRead }
    /// Events of kinds this reader does not know (a newer minor version), skipped by length.
    public private(set) var skippedEvents = 0
    /// Chunks decoded so far.
    public private(set) var chunksRead = 0
    /// Threads seen so far.
    public var threadCount: Int { contexts.count }

    private let mode: Mode
    private let input: TraceInput
    private var decoder = ChunkDecoder()
    private var contexts: [UInt32: ChunkDecoder.Context] = [:]
    // Touched once per event: no dynamic exclusivity checks (one reader, one thread).
    @exclusivity(unchecked) private var pending: [TraceEvent] = []
    @exclusivity(unchecked) private var pendingIndex = 0
    @exclusivity(unchecked) private var storedEventsRead = 0
    @exclusivity(unchecked) private var finished = false
    /// The chunk being decoded, validated whole beforehand.
    @exclusivity(unchecked) private var chunk: Chunk?

    private struct Chunk {
        var offset: Int
        var payload: [UInt8]
        var thread: UInt32
        var sequence: UInt32
        var remaining: Int
        var index: Int
        var context: ChunkDecoder.Context
    }

    /// Opens the trace at `path` and reads its header. Throws
    /// ``TraceDecodingError`` for a missing, empty, foreign or newer-major file.
    public convenience init(path: String, mode: Mode = .lenient) throws(TraceDecodingError) {
        try self.init(input: TraceInput(path: path), mode: mode)
    }

    /// Reads a trace from bytes in memory.
    public convenience init(bytes: [UInt8], mode: Mode = .lenient) throws(TraceDecodingError) {
        try self.init(input: TraceInput(bytes: bytes), mode: mode)
    }

    private init(input: TraceInput, mode: Mode) throws(TraceDecodingError) {
        self.input = input
        self.mode = mode
        let prefix = try input.read(16)
        let length = try TraceHeader.validatePrefix(prefix, fileLength: nil)
        let rest = try input.read(length - prefix.count)
        guard rest.count == length - prefix.count else { throw .truncated(offset: 0) }
        header = try TraceHeader.decode(prefix + rest)
    }

    /// The next event, or nil at the end of the readable trace.
    public func next() throws(TraceDecodingError) -> TraceEvent? {
        while pendingIndex == pending.count {
            pending.removeAll(keepingCapacity: true)
            pendingIndex = 0
            do {
                if chunk != nil {
                    try decodeBatch()
                } else {
                    if finished { return nil }
                    try readBlock()
                }
            } catch {
                finished = true
                chunk = nil
                truncation = TraceTruncation(offset: error.offset ?? input.offset, reason: error)
                if mode == .strict { throw error }
                return nil
            }
        }
        defer { pendingIndex += 1 }
        storedEventsRead += 1
        return pending[pendingIndex]
    }

    /// Decodes the next batch of the current chunk's events into `pending`.
    private func decodeBatch() throws(TraceDecodingError) {
        guard var current = chunk else { return }
        let batch = Swift.min(current.remaining, 256)
        guard decoder.decode(current.payload, from: &current.index, count: batch, thread: current.thread,
                             context: &current.context, into: &pending) != nil
        else { throw .corruptChunk(offset: current.offset) }   // cannot happen after validation
        current.remaining -= batch
        if current.remaining == 0 {
            current.context.nextSequence = current.sequence &+ 1
            contexts[current.thread] = current.context
            chunk = nil
        } else {
            chunk = current
        }
    }

    /// Reads every remaining event, returning how many there were (to get to
    /// ``end`` and ``truncation`` without looking at the events).
    @discardableResult
    public func skipToEnd() throws(TraceDecodingError) -> Int {
        var count = 0
        while try next() != nil { count += 1 }
        return count
    }

    /// The events from here on; iteration ends at the end of the readable
    /// trace (see ``truncation``), never with an error.
    public func makeIterator() -> Iterator { Iterator(reader: self) }

    /// Iterates a reader's events (lenient: damage ends the iteration).
    public struct Iterator: IteratorProtocol {
        let reader: TraceReader
        /// The next event, or nil at the end of what is readable.
        public mutating func next() -> TraceEvent? { try? reader.next() }
    }

    /// Reads the next block into `pending`, or sets `finished` at the clean end of the file.
    private func readBlock() throws(TraceDecodingError) {
        let offset = input.offset
        let headerBytes = try input.read(TraceFormat.blockHeaderLength)
        if headerBytes.isEmpty {
            finished = true
            if end == nil { throw .missingEnd(offset: offset) }
            return
        }
        guard headerBytes.count == TraceFormat.blockHeaderLength else { throw .truncated(offset: offset) }
        var reader = ByteReader(headerBytes)
        guard let type = reader.readInteger(as: UInt32.self),
              let length = reader.readInteger(as: UInt32.self),
              let thread = reader.readInteger(as: UInt32.self),
              let sequence = reader.readInteger(as: UInt32.self),
              let count = reader.readInteger(as: UInt32.self),
              let flags = reader.readByte(),
              reader.skip(3),
              let storedChecksum = reader.readInteger(as: UInt32.self)
        else { throw .truncated(offset: offset) }
        guard length <= TraceFormat.maxPayloadLength else { throw .corruptChunk(offset: offset) }
        let payload = try input.read(Int(length))
        guard payload.count == Int(length) else { throw .truncated(offset: offset) }
        var checksum = CRC32()
        headerBytes.withUnsafeBytes { checksum.update(UnsafeRawBufferPointer(rebasing: $0[0..<24])) }
        payload.withUnsafeBytes { checksum.update($0) }
        guard checksum.value == storedChecksum else { throw .corruptChunk(offset: offset) }

        switch type {
        case TraceFormat.chunkBlock:
            let fresh = flags & TraceFormat.freshContextFlag != 0
            let context: ChunkDecoder.Context
            if fresh {
                guard sequence == contexts[thread].map({ $0.nextSequence }) ?? 0 else { throw .corruptChunk(offset: offset) }
                context = ChunkDecoder.Context(nextSequence: sequence)
            } else {
                guard let existing = contexts[thread], existing.nextSequence == sequence else {
                    throw .corruptChunk(offset: offset)
                }
                context = existing
            }
            // Validate the whole chunk first, so that its events are yielded all or not at all;
            // then decode them a batch at a time (the batch stays in cache; the chunk's events never all exist at once).
            guard Int(count) <= payload.count,
                  let skipped = decoder.validate(payload, count: Int(count), context: context)
            else { throw .corruptChunk(offset: offset) }
            chunk = Chunk(offset: offset, payload: payload, thread: thread, sequence: sequence,
                          remaining: Int(count), index: 0, context: context)
            skippedEvents += skipped
            chunksRead += 1
        case TraceFormat.endBlock:
            var reader = ByteReader(payload)
            guard let events = reader.readInteger(as: UInt64.self),
                  let chunks = reader.readInteger(as: UInt64.self),
                  let duration = reader.readInteger(as: UInt64.self),
                  let threads = reader.readInteger(as: UInt32.self)
            else { throw .corruptChunk(offset: offset) }
            end = TraceEnd(events: events, chunks: chunks, durationNanoseconds: duration, threads: threads)
        default:
            break  // a block type from a newer minor version: skipped by its length
        }
    }
}

extension TraceDecodingError {
    /// The byte offset the error is about, if it names one.
    var offset: Int? {
        switch self {
        case let .truncated(offset), let .corruptChunk(offset), let .missingEnd(offset): offset
        default: nil
        }
    }
}
