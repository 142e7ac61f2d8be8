/// Reads a trace log back as a stream of ``TraceEvent``s.
///
/// ```swift
/// let reader = try TraceReader(path: "app.trace")
/// while let event = try reader.next() { … }
/// if let truncation = reader.truncation { print("stopped at byte \(truncation.offset): \(truncation)") }
/// ```
///
/// For speed, ``nextBatch(_:)`` and ``forEachBatch(_:)`` lend the events a
/// chunk at a time, in place, as ``PlainTraceEvent``s (plain data; strings are
/// ``TraceStringID``s into ``TraceEventBatch/strings``): the same events, the
/// same end. `next()` reads from the same batches; the two can be mixed.
///
/// Memory is bounded by one chunk, its decoded events (at most one per two
/// payload bytes) and the string tables of the live chunk contexts, whatever
/// the number of events. A damaged or unfinished trace yields
/// every complete, intact chunk and then stops, recording where and why in
/// ``truncation`` (in ``Mode/strict`` mode `next()` and `nextBatch` throw instead). No byte
/// sequence makes it trap or loop: every length is bounds-checked and capped.
public final class TraceReader: Sequence {
    /// What to do when the log turns out to be damaged after the header.
    public enum Mode: Sendable {
        /// Stop and report through ``truncation`` (the default: read what is readable).
        case lenient
        /// Throw the ``TraceDecodingError`` from `next()` or ``nextBatch(_:)``.
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
    /// Where bytes that are not part of the trace begin: the first byte after
    /// an intact end block, when the file goes on past it (nil otherwise).
    /// The trace itself is whole; the bytes after it are not read.
    public private(set) var trailingBytesOffset: Int?
    /// Events of kinds this reader does not know (a newer minor version), skipped by length.
    public private(set) var skippedEvents = 0
    /// Clock events read (docs/TRACE_FORMAT.md, "Clock events"): they set their thread's
    /// time and are events of the trace, but carry nothing else, so they are not returned.
    public private(set) var clockEvents = 0
    /// Chunks decoded so far.
    public private(set) var chunksRead = 0
    /// What the recording says about itself (commit, scenario, app, the app's keys), from the
    /// metadata block (format 1.2) once read: it precedes the first chunk. Empty when the trace has none.
    public private(set) var metadata = TraceMetadata()
    /// A bounded recording's bound and what it overwrote, from the history block (format 1.2)
    /// once read (it precedes the first chunk); nil for an unbounded recording.
    public private(set) var history: TraceHistory?
    /// Events of chunks that restate definitions from overwritten history (the
    /// definitions flag, format 1.2): counted in ``eventsRead`` like every event.
    public private(set) var definitionEvents = 0
    /// Threads seen so far.
    public var threadCount: Int { contexts.count }
    /// The latest chunk decoded: where its block begins, its thread, its sequence number and whether it
    /// opened a fresh context (what an index needs to read that chunk alone, ``TraceResumePoint/chunk(at:thread:continuing:nextSequence:eventTime:)``).
    package private(set) var lastChunk: (offset: Int, thread: UInt32, sequence: UInt32, fresh: Bool)?

    /// The time the events of `thread` read as now (its latest event's, across contexts).
    package func eventTime(ofThread thread: UInt32) -> UInt64? { contexts[thread]?.eventTime }
    /// Bytes of the file read so far: the offset of the next block.
    public var bytesRead: Int { input.offset }
    /// Whether this reader follows a trace that is still being recorded (see
    /// ``init(following:)``).
    public let isFollowing: Bool
    /// True once reading is over for good: the end block was read, or the
    /// trace is damaged (see ``truncation``), or (when not following) the file ended.
    public var isFinished: Bool { finished && pendingIndex == pendingCount }
    /// True if reading ended at the size the file had when it was opened, with
    /// no end block read and the file longer now: a recording still going on,
    /// read as far as it was written then (``init(path:mode:)``).
    public private(set) var isStillRecording = false

    private let mode: Mode
    private let input: TraceInput
    private let decoder = ChunkDecoder()
    private var contexts: [UInt32: ChunkDecoder.Context] = [:]
    // Touched once per event or batch: no dynamic exclusivity checks (one reader, one thread).
    /// The decoded events of the current chunk: `pendingIndex..<pendingCount` not yet handed out.
    @exclusivity(unchecked) private var events: UnsafeMutablePointer<PlainTraceEvent>
    @exclusivity(unchecked) private var eventCapacity = 0
    @exclusivity(unchecked) private var pendingCount = 0
    @exclusivity(unchecked) private var pendingIndex = 0
    /// The current chunk's thread and its string table.
    @exclusivity(unchecked) private var pendingThread: UInt32 = 0
    @exclusivity(unchecked) private var pendingStrings: [String] = []
    @exclusivity(unchecked) private var storedEventsRead = 0
    @exclusivity(unchecked) private var finished = false
    /// Following: the last read found no complete block yet (not the end, not damage).
    @exclusivity(unchecked) private var waiting = false
    /// True while `nextBatch` lends the buffer: reading on from inside would overwrite or free it.
    @exclusivity(unchecked) private var lending = false

    /// Opens the trace at `path` and reads its header. Throws
    /// ``TraceDecodingError`` for a missing, empty, foreign or newer-major file.
    ///
    /// The reader reads the file as it is when opened: up to its size then,
    /// so that a file a recorder is still writing is read to an end instead
    /// of being chased. When the file has grown past that size by the time
    /// reading gets there, the recording is going on: reading ends there,
    /// without damage (``isStillRecording``), and a block cut at that size is
    /// one being written, not a truncation. (To follow a recording, see ``init(following:)``.)
    public convenience init(path: String, mode: Mode = .lenient) throws(TraceDecodingError) {
        try self.init(input: TraceInput(path: path, bounded: true), mode: mode)
    }

    /// Opens the trace at `path` as ``init(path:mode:)`` does, reading it only
    /// up to `limit` bytes (or its size, when less): the part of a growing
    /// trace a follower has read (``bytesRead``), so that a second reader gives
    /// the same answers as the follower. A file longer than `limit` reads as
    /// still being recorded there.
    public convenience init(path: String, upTo limit: Int, mode: Mode = .lenient) throws(TraceDecodingError) {
        try self.init(input: TraceInput(path: path, bounded: true, limit: limit), mode: mode)
    }

    /// Reads a trace from bytes in memory.
    public convenience init(bytes: [UInt8], mode: Mode = .lenient) throws(TraceDecodingError) {
        try self.init(input: TraceInput(bytes: bytes), mode: mode)
    }

    /// Opens the trace at `path` to follow it while it is being recorded.
    ///
    /// The reader hands out every chunk that has landed; at the current end of
    /// the file (nothing more yet, or a block only partly written) ``nextBatch(_:)``
    /// and ``next()`` return false or nil without reporting damage, and a later
    /// call picks up what has been written since. Reading is over (``isFinished``)
    /// at the end block, or at real damage: a complete block whose checksum or
    /// contents are wrong, recorded in ``truncation`` as usual.
    ///
    /// Throws as ``init(path:mode:)`` does, also when the header is not yet
    /// complete (``TraceDecodingError/empty`` or ``TraceDecodingError/truncatedHeader(bytes:needed:)``):
    /// the caller may try again once the recorder has written it.
    ///
    /// ```swift
    /// let reader = try TraceReader(following: "app.rtrace")
    /// while !reader.isFinished {
    ///     while try reader.nextBatch({ batch in … }) {}
    ///     try await Task.sleep(for: .milliseconds(5))
    /// }
    /// ```
    public convenience init(following path: String) throws(TraceDecodingError) {
        let input = try TraceInput(path: path)
        input.following = true
        try self.init(input: input, mode: .lenient)
    }

    private init(input: TraceInput, mode: Mode) throws(TraceDecodingError) {
        self.input = input
        self.mode = mode
        isFollowing = input.following
        let prefix = try input.read(16)
        let length = try TraceHeader.validatePrefix(prefix, fileLength: nil)
        let rest = try input.read(length - prefix.count)
        guard rest.count == length - prefix.count else {
            throw .truncatedHeader(bytes: prefix.count + rest.count, needed: length)
        }
        header = try TraceHeader.decode(prefix + rest)
        events = UnsafeMutablePointer<PlainTraceEvent>.allocate(capacity: 0)
    }

    deinit {
        events.deallocate()
    }

    /// Opens the trace at `path` (as ``init(path:mode:)``) and goes on from
    /// `point`, taken from a reader of the same file by ``resumePoint()``:
    /// the next batch is the one that reader would have lent next. Throws as
    /// ``init(path:mode:)``, and ``TraceDecodingError/truncated(offset:)`` for a point past the file's end.
    /// With `limit`, the file is read only up to that many bytes, as ``init(path:upTo:mode:)`` reads it.
    public convenience init(path: String, resumingAt point: TraceResumePoint, upTo limit: Int? = nil,
                            mode: Mode = .lenient) throws(TraceDecodingError) {
        if let limit {
            try self.init(path: path, upTo: limit, mode: mode)
        } else {
            try self.init(path: path, mode: mode)
        }
        guard point.offset >= input.offset, try input.skip(to: point.offset) else {
            throw .truncated(offset: point.offset)
        }
        contexts = point.contexts
        storedEventsRead = point.eventsRead
        skippedEvents = point.skippedEvents
        clockEvents = point.clockEvents
        chunksRead = point.chunksRead
        definitionEvents = point.definitionEvents
    }

    /// Where reading stands now, for ``init(path:resumingAt:mode:)``; nil
    /// while a chunk's events are still to be handed out (after ``next()``
    /// took part of one) or once reading is over.
    public func resumePoint() -> TraceResumePoint? {
        guard pendingIndex == pendingCount, !finished, !lending else { return nil }
        return TraceResumePoint(offset: input.offset, eventsRead: storedEventsRead, skippedEvents: skippedEvents,
                                clockEvents: clockEvents, chunksRead: chunksRead, definitionEvents: definitionEvents,
                                contexts: contexts)
    }

    /// The next event, or nil at the end of the readable trace.
    public func next() throws(TraceDecodingError) -> TraceEvent? {
        precondition(!lending, "TraceReader.next() called inside nextBatch's closure")
        while pendingIndex == pendingCount {
            guard try advance() else { return nil }
        }
        defer { pendingIndex += 1 }
        storedEventsRead += 1
        return events[pendingIndex].resolved(in: pendingStrings)
    }

    /// Lends the next batch of events to `body`: the rest of the current chunk
    /// (all of it unless ``next()`` took some), decoded in one pass into the
    /// reader's buffer and handed out in place. Returns false, without calling
    /// `body`, at the end of the readable trace.
    ///
    /// The same events as ``next()``, with the same end: a damaged chunk yields
    /// nothing, then reading stops and ``truncation`` says where and why (in
    /// ``Mode/strict`` mode this throws instead). Batches are never empty.
    /// The batch lives in the reader's buffer, so `body` must not read on
    /// (calling `next()` or `nextBatch` from inside it traps).
    ///
    /// ```swift
    /// while try reader.nextBatch({ batch in
    ///     for event in batch.events { … batch.string(name) … }
    /// }) {}
    /// ```
    @discardableResult
    public func nextBatch(_ body: (borrowing TraceEventBatch) -> Void) throws(TraceDecodingError) -> Bool {
        precondition(!lending, "TraceReader.nextBatch called inside nextBatch's closure")
        while pendingIndex == pendingCount {
            guard try advance() else { return false }
        }
        let batch = TraceEventBatch(
            events: UnsafeBufferPointer(start: events + pendingIndex, count: pendingCount - pendingIndex),
            strings: pendingStrings, thread: pendingThread)
        storedEventsRead += batch.count
        pendingIndex = pendingCount
        lending = true
        defer { lending = false }
        body(batch)
        return true
    }

    /// Lends every remaining batch to `body` in turn (see ``nextBatch(_:)``),
    /// until the end of the readable trace.
    public func forEachBatch(_ body: (borrowing TraceEventBatch) -> Void) throws(TraceDecodingError) {
        while try nextBatch(body) {}
    }

    /// Decodes the next chunk into `events`; false at the end of the readable
    /// trace (clean or not: damage is recorded in `truncation`, or thrown in strict mode).
    private func advance() throws(TraceDecodingError) -> Bool {
        pendingIndex = 0
        pendingCount = 0
        // Let go of the table first: decoding may add to it, which must not copy it.
        pendingStrings = []
        if finished { return false }
        do {
            try readBlock()
        } catch {
            finished = true
            pendingCount = 0
            truncation = TraceTruncation(offset: error.offset ?? input.offset, reason: error)
            if mode == .strict { throw error }
            return false
        }
        if waiting { return false }
        return !finished || pendingCount > 0
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

    /// Reads the next block: a chunk's events go to `events`; sets `finished`
    /// at the clean end of the file.
    private func readBlock() throws(TraceDecodingError) {
        let offset = input.offset
        // Following: a block not yet written in full is waited for, not read (a partial read would count as damage).
        if isFollowing {
            waiting = true
            guard try input.ensure(TraceFormat.blockHeaderLength) >= TraceFormat.blockHeaderLength else { return }
            let length = Int(input.peekUInt32(at: 4))
            if length <= TraceFormat.maxPayloadLength {
                let needed = TraceFormat.blockHeaderLength + length
                guard try input.ensure(needed) >= needed else { return }
            }
            waiting = false
        }
        let headerBytes = try input.read(TraceFormat.blockHeaderLength)
        if headerBytes.isEmpty {
            finished = true
            if end == nil && !stillRecording() { throw .missingEnd(offset: offset) }
            return
        }
        guard headerBytes.count == TraceFormat.blockHeaderLength else { try cut(at: offset); return }
        var reader = ByteReader(headerBytes)
        guard let type = reader.readInteger(as: UInt32.self),
              let length = reader.readInteger(as: UInt32.self),
              let thread = reader.readInteger(as: UInt32.self),
              let sequence = reader.readInteger(as: UInt32.self),
              let count = reader.readInteger(as: UInt32.self),
              let flags = reader.readByte(),
              reader.skip(3),
              let storedChecksum = reader.readInteger(as: UInt32.self)
        else { try cut(at: offset); return }
        guard length <= TraceFormat.maxPayloadLength else { throw .corruptChunk(offset: offset) }
        // The payload is checked and decoded in place, in the input's buffer.
        let failure: TraceDecodingError? = try input.withBytes(Int(length)) { payload in
            guard payload.count == Int(length) else { return .truncated(offset: offset) }
            var checksum = CRC32()
            headerBytes.withUnsafeBytes { checksum.update(UnsafeRawBufferPointer(rebasing: $0[0..<24])) }
            checksum.update(UnsafeRawBufferPointer(payload))
            guard checksum.value == storedChecksum else { return .corruptChunk(offset: offset) }
            switch type {
            case TraceFormat.chunkBlock:
                let fresh = flags & TraceFormat.freshContextFlag != 0
                let failure = decodeChunk(payload, offset: offset, thread: thread, sequence: sequence,
                                          count: Int(count), fresh: fresh)
                if failure == nil, flags & TraceFormat.definitionsFlag != 0 { definitionEvents += Int(count) }
                return failure
            case TraceFormat.endBlock:
                // 28 bytes (1.0) or at least 40 (1.1 and later): the 1.1 fields come whole or not at all.
                guard payload.count == TraceFormat.endBlockLength10 || payload.count >= TraceFormat.endBlockLength11
                else { return .corruptChunk(offset: offset) }
                var reader = ByteReader(Array(payload))
                guard let events = reader.readInteger(as: UInt64.self),
                      let chunks = reader.readInteger(as: UInt64.self),
                      let duration = reader.readInteger(as: UInt64.self),
                      let threads = reader.readInteger(as: UInt32.self)
                else { return .corruptChunk(offset: offset) }
                // Fields added in format 1.1; an end block of 1.0 stops before them.
                let dropped = reader.readInteger(as: UInt64.self) ?? 0
                let termination = reader.readInteger(as: UInt32.self).map(TraceTermination.init(code:)) ?? .stopped
                end = TraceEnd(events: events, chunks: chunks, durationNanoseconds: duration, threads: threads,
                               eventsDropped: dropped, termination: termination)
                // Following, the end block ends the recording: nothing after it is waited for.
                if isFollowing { finished = true }
                return nil
            case TraceFormat.metadataBlock:
                guard let metadata = TraceMetadata(payload: payload) else { return .corruptChunk(offset: offset) }
                self.metadata = metadata
                return nil
            case TraceFormat.historyBlock:
                guard let history = TraceHistory(payload: payload) else { return .corruptChunk(offset: offset) }
                self.history = history
                return nil
            default:
                return nil  // a block type from a newer minor version: skipped by its length
            }
        }
        if let failure {
            guard case .truncated = failure else { throw failure }
            try cut(at: offset)
            return
        }
        if type == TraceFormat.endBlock {
            // The end block closes the trace: whatever follows is not read.
            finished = true
            let after = input.offset
            if try !input.read(1).isEmpty { trailingBytesOffset = after }
        }
    }

    /// The file ends inside the block at `offset`: a truncated trace, unless
    /// that is where the file ended when the reader opened it and the
    /// recorder has written on since (the block was being written): then
    /// reading ends there, undamaged.
    private func cut(at offset: Int) throws(TraceDecodingError) {
        guard stillRecording() else { throw .truncated(offset: offset) }
        finished = true
    }

    /// True, and noted, if reading reached the size the file had when opened and the file has grown since.
    private func stillRecording() -> Bool {
        guard input.grewPastLimit else { return false }
        isStillRecording = true
        return true
    }

    /// Decodes a chunk's events into `events` in one pass; all of them or, if
    /// the chunk is malformed, none (the error to stop with is returned).
    private func decodeChunk(_ payload: UnsafeBufferPointer<UInt8>, offset: Int, thread: UInt32, sequence: UInt32,
                             count: Int, fresh: Bool) -> TraceDecodingError? {
        // Taken out of the table while decoding, so that adding strings to it does not copy it.
        let previous = contexts.removeValue(forKey: thread)
        guard fresh ? sequence == (previous?.nextSequence ?? 0) : previous?.nextSequence == sequence else {
            if let previous { contexts[thread] = previous }
            return .corruptChunk(offset: offset)
        }
        var context = fresh ? ChunkDecoder.Context(nextSequence: sequence, eventTime: previous?.eventTime ?? 0) : previous!
        // Every stored event takes at least two bytes: a hostile count cannot
        // make the buffer larger than the payload allows.
        let capacity = Swift.min(count, payload.count / 2)
        if capacity > eventCapacity {
            events.deallocate()
            eventCapacity = Swift.max(capacity, eventCapacity * 2)
            events = .allocate(capacity: eventCapacity)
        }
        guard count <= payload.count,
              let decoded = decoder.decode(payload, count: count, thread: thread, context: &context,
                                           into: events, capacity: capacity)
        else {
            // Reading stops here: the context goes back only so that `threadCount` stays right.
            if let previous { contexts[thread] = fresh ? previous : context }
            return .corruptChunk(offset: offset)
        }
        context.nextSequence = sequence &+ 1
        lastChunk = (offset, thread, sequence, fresh)
        pendingStrings = context.strings
        contexts[thread] = context
        pendingThread = thread
        pendingCount = decoded.stored
        skippedEvents += decoded.skipped
        clockEvents += decoded.clocks
        chunksRead += 1
        return nil
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
