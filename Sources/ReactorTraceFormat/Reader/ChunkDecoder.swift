/// Decodes the events of one chunk (docs/TRACE_FORMAT.md, "Events").
struct ChunkDecoder {
    /// A thread's decoding state, carried from chunk to chunk until a chunk
    /// starts a fresh context.
    struct Context: Equatable, Sendable {
        var nextSequence: UInt32
        /// Register `T`: reset by a fresh context.
        var time: UInt64 = 0
        /// The time the thread's events read as: its latest event's, kept
        /// across fresh contexts, so that an untimed event at the start of a
        /// context does not read as earlier than the event before it
        /// (docs/TRACE_FORMAT.md, section 7, "Event times").
        var eventTime: UInt64 = 0
        var computation: UInt64 = 0
        var dependency: UInt64 = 0
        var node: UInt64 = 0
        /// Every string and value text the context defined, in order: what
        /// ``TraceStringID``s index.
        var strings: [String] = []
        /// The string table: entry r is `strings[stringEntries[r - 1]]`.
        var stringEntries: [UInt32] = []
        /// The value events' node register.
        var valueNode: UInt64 = 0
        /// The value table: entry r is `strings[valueEntries[r - 1]]`.
        var valueEntries: [UInt32] = []
        /// The site table: entry r is `strings[siteEntries[r - 1]]`.
        var siteEntries: [UInt32] = []

        init(nextSequence: UInt32, eventTime: UInt64 = 0) {
            self.nextSequence = nextSequence
            self.eventTime = eventTime
        }
    }

    /// What one pass over a chunk came to.
    struct Decoded {
        /// Events written to the output buffer.
        var stored: Int
        /// Events of unknown kinds or values, skipped.
        var skipped: Int
        /// Clock events: read into the time register, not stored.
        var clocks: Int
    }

    /// Decodes the `count` events of `payload` in one pass, writing the known
    /// ones to `events` (room for `capacity`); nil if the payload is malformed:
    /// short, with bytes left over, or holding more events than `capacity`.
    /// On nil, `context` and `events` hold partial results to be dropped.
    func decode(_ payload: UnsafeBufferPointer<UInt8>, count: Int, thread: UInt32, context: inout Context,
                into events: UnsafeMutablePointer<PlainTraceEvent>, capacity: Int) -> Decoded? {
        var reader = UnsafeByteReader(payload)
        var output = Output(events: events, capacity: capacity, thread: thread)
        var skipped = 0, clocks = 0
        for _ in 0..<count {
            guard let tag = reader.readByte() else { return nil }
            if tag >= TraceFormat.firstExtensionTag {
                guard let length = reader.readVarint(), length <= UInt64(reader.readableBytes) else { return nil }
                if tag == TraceFormat.valueTag {
                    guard decodeValue(&reader, length: Int(length), &context, &output) else { return nil }
                    continue
                }
                if tag == TraceFormat.siteTag {
                    switch decodeSite(&reader, length: Int(length), &context, &output) {
                    case .decoded: break
                    case .unknownValue: skipped += 1
                    case .malformed: return nil
                    }
                    continue
                }
                if tag == TraceFormat.clockTag || tag == TraceFormat.registerClockTag {
                    guard readClock(&reader, length: Int(length), setsRegister: tag == TraceFormat.registerClockTag,
                                    &context) else { return nil }
                    clocks += 1
                    continue
                }
                guard reader.skip(Int(length)) else { return nil }
                skipped += 1
                continue
            }
            guard let kind = TraceEventKind(rawValue: tag) else { return nil }
            switch decodeRecord(kind, &reader, &context, &output) {
            case .decoded: break
            case .unknownValue: skipped += 1
            case .malformed: return nil
            }
        }
        guard reader.readableBytes == 0 else { return nil }
        return Decoded(stored: output.stored, skipped: skipped, clocks: clocks)
    }

    /// Where decoded events go: a bounded buffer, filled from the start.
    private struct Output {
        let events: UnsafeMutablePointer<PlainTraceEvent>
        let capacity: Int
        let thread: UInt32
        var stored = 0

        /// Stores an event; false if the buffer is full (the chunk claims more than it can hold).
        @inline(__always)
        mutating func emit(_ record: PlainTraceRecord, at time: UInt64) -> Bool {
            guard stored < capacity else { return false }
            (events + stored).initialize(to: PlainTraceEvent(timestamp: time, thread: thread, record: record))
            stored &+= 1
            return true
        }
    }

    /// What decoding one event came to.
    private enum Outcome {
        /// Stored in the output.
        case decoded
        /// Well formed, but naming an enum value this version does not know
        /// (a node kind, cause or issue kind): skipped.
        case unknownValue
        case malformed
    }

    /// Decodes one event of `kind` and stores it straight into `output` (no
    /// intermediate copies of the record).
    @inline(__always)
    private func decodeRecord(_ kind: TraceEventKind, _ reader: inout UnsafeByteReader, _ context: inout Context,
                              _ output: inout Output) -> Outcome {
        @inline(__always)
        func emit(_ record: PlainTraceRecord, _ context: Context, _ output: inout Output) -> Outcome {
            output.emit(record, at: context.eventTime) ? .decoded : .malformed
        }
        switch kind {
        case .nodeCreated:
            guard let rawKind = reader.readByte(),
                  let id = readID(&reader, &context.node),
                  let name = readString(&reader, &context),
                  let parent = readOptionalID(&reader, &context.node),
                  readTime(&reader, &context) else { return .malformed }
            guard let nodeKind = TraceNodeKind(rawValue: rawKind) else { return .unknownValue }
            return emit(.nodeCreated(id: id, kind: nodeKind, name: name, parent: parent), context, &output)
        case .nodeNamed:
            guard let id = readID(&reader, &context.node),
                  let name = readString(&reader, &context),
                  let owner = readOptionalID(&reader, &context.node) else { return .malformed }
            return emit(.nodeNamed(id: id, name: name, owner: owner), context, &output)
        case .nodeStopped:
            guard let id = readID(&reader, &context.node), readTime(&reader, &context) else { return .malformed }
            return emit(.nodeStopped(id: id), context, &output)
        case .depend:
            guard let computation = readID(&reader, &context.computation),
                  let dependency = readID(&reader, &context.dependency) else { return .malformed }
            return emit(.depend(computation: computation, dependency: dependency), context, &output)
        case .changed:
            guard let dependency = readID(&reader, &context.dependency) else { return .malformed }
            return emit(.changed(dependency: dependency), context, &output)
        case .invalidated:
            guard let computation = readID(&reader, &context.computation),
                  let packed = reader.readVarint() else { return .malformed }
            let source = Self.optionalID(packed &>> 3, &context.dependency)
            guard let cause = InvalidationCause(rawValue: UInt8(packed & 0x7)) else { return .unknownValue }
            return emit(.invalidated(computation: computation, cause: cause, source: source), context, &output)
        case .rerunBegan:
            guard let packed = reader.readVarint(), readTime(&reader, &context) else { return .malformed }
            let computation = Varint.undoZigzagDelta(packed &>> 1, from: context.computation)
            context.computation = computation
            return emit(.rerunBegan(computation: computation, firstRun: packed & 1 == 1), context, &output)
        case .rerunEnded:
            guard let computation = readID(&reader, &context.computation), readTime(&reader, &context) else { return .malformed }
            return emit(.rerunEnded(computation: computation), context, &output)
        case .actionBegan:
            guard let store = readID(&reader, &context.node),
                  let name = readString(&reader, &context),
                  let arguments = readString(&reader, &context),
                  readTime(&reader, &context) else { return .malformed }
            return emit(.actionBegan(store: store, name: name, arguments: arguments), context, &output)
        case .actionEnded:
            guard let store = readID(&reader, &context.node), readTime(&reader, &context) else { return .malformed }
            return emit(.actionEnded(store: store), context, &output)
        case .flushBegan:
            guard readTime(&reader, &context) else { return .malformed }
            return emit(.flushBegan, context, &output)
        case .flushEnded:
            guard readTime(&reader, &context) else { return .malformed }
            return emit(.flushEnded, context, &output)
        case .issue:
            guard let rawKind = reader.readByte(),
                  let node = readOptionalID(&reader, &context.node),
                  let message = readString(&reader, &context),
                  readTime(&reader, &context) else { return .malformed }
            guard let issueKind = TraceIssueKind(rawValue: rawKind) else { return .unknownValue }
            return emit(.issue(kind: issueKind, node: node, message: message), context, &output)
        case .value, .site:
            // Tags 14 and 15 are not value or site events (those are extension tags 64
            // and 65): invalid, like 16–63.
            return .malformed
        }
    }

    /// A value event's body (docs/TRACE_FORMAT.md, "Values"): the node, then a
    /// reference to the value table or a new value. Bytes after them (a newer
    /// minor's fields) are skipped; fields running past the body are malformed.
    private func decodeValue(_ reader: inout UnsafeByteReader, length: Int, _ context: inout Context,
                             _ output: inout Output) -> Bool {
        let end = reader.readableBytes - length
        guard let nodeCode = reader.readVarint(), let reference = reader.readVarint(),
              reader.readableBytes >= end else { return false }
        let node = Varint.undoZigzagDelta(nodeCode, from: context.valueNode)
        context.valueNode = node
        let text: TraceStringID
        if reference == 0 {
            guard context.strings.count < Int(UInt32.max),
                  let count = reader.readVarint(), Int(clamping: count) <= reader.readableBytes - end,
                  let string = reader.readString(Int(count))
            else { return false }
            context.strings.append(string)
            context.valueEntries.append(UInt32(context.strings.count - 1))
            text = TraceStringID(index: UInt32(context.strings.count - 1))
        } else {
            guard reference <= UInt64(context.valueEntries.count) else { return false }
            text = TraceStringID(index: context.valueEntries[Int(reference - 1)])
        }
        guard reader.readableBytes >= end, reader.skip(reader.readableBytes - end) else { return false }
        // Untimed: the thread's latest event's time, across contexts (section 7), not the register.
        return output.emit(.value(node: node, value: text), at: context.eventTime)
    }

    /// A site event's body (docs/TRACE_FORMAT.md, "Sites"): the node, the role
    /// (0 creation, 1 action call), then a reference to the site table or a new
    /// site. Later bytes are skipped; an unknown role skips the event's meaning
    /// but not its table entry.
    private func decodeSite(_ reader: inout UnsafeByteReader, length: Int, _ context: inout Context,
                            _ output: inout Output) -> Outcome {
        let end = reader.readableBytes - length
        guard let node = reader.readVarint(), let role = reader.readVarint(), let reference = reader.readVarint(),
              reader.readableBytes >= end else { return .malformed }
        let text: TraceStringID
        if reference == 0 {
            guard context.strings.count < Int(UInt32.max),
                  let count = reader.readVarint(), Int(clamping: count) <= reader.readableBytes - end,
                  let string = reader.readString(Int(count))
            else { return .malformed }
            context.strings.append(string)
            context.siteEntries.append(UInt32(context.strings.count - 1))
            text = TraceStringID(index: UInt32(context.strings.count - 1))
        } else {
            guard reference <= UInt64(context.siteEntries.count) else { return .malformed }
            text = TraceStringID(index: context.siteEntries[Int(reference - 1)])
        }
        guard reader.readableBytes >= end, reader.skip(reader.readableBytes - end) else { return .malformed }
        guard role <= 1 else { return .unknownValue }
        return output.emit(.site(node: node, site: text, isActionCall: role == 1), at: context.eventTime) ? .decoded : .malformed
    }

    private func readID(_ reader: inout UnsafeByteReader, _ register: inout UInt64) -> UInt64? {
        guard let code = reader.readVarint() else { return nil }
        register = Varint.undoZigzagDelta(code, from: register)
        return register
    }

    private func readOptionalID(_ reader: inout UnsafeByteReader, _ register: inout UInt64) -> UInt64? {
        guard let code = reader.readVarint() else { return nil }
        return Self.optionalID(code, &register)
    }

    /// Decodes an optional id code: 0 is none, else zigzag delta + 1.
    private static func optionalID(_ code: UInt64, _ register: inout UInt64) -> UInt64 {
        guard code != 0 else { return 0 }
        register = Varint.undoZigzagDelta(code &- 1, from: register)
        return register
    }

    private func readTime(_ reader: inout UnsafeByteReader, _ context: inout Context) -> Bool {
        guard let delta = reader.readVarint() else { return false }
        context.time &+= delta
        if context.time > context.eventTime { context.eventTime = context.time }
        return true
    }

    /// A clock event's body of `length` bytes, then bytes a newer minor version may add,
    /// skipped: a timestamp the thread's untimed events after it take (1.3, the register
    /// untouched), or a `time` field that sets the register (tag 66, 1.1 and 1.2 writers).
    private func readClock(_ reader: inout UnsafeByteReader, length: Int, setsRegister: Bool,
                           _ context: inout Context) -> Bool {
        guard var body = reader.slice(length) else { return false }
        if setsRegister { return readTime(&body, &context) }
        guard let timestamp = body.readVarint() else { return false }
        if timestamp > context.eventTime { context.eventTime = timestamp }
        return true
    }

    /// A string field: a reference to the table, or (0) a new string, added to it.
    private func readString(_ reader: inout UnsafeByteReader, _ context: inout Context) -> TraceStringID? {
        guard let reference = reader.readVarint() else { return nil }
        if reference == 0 {
            guard context.strings.count < Int(UInt32.max),
                  let length = reader.readVarint(), length <= UInt64(reader.readableBytes),
                  let string = reader.readString(Int(length))
            else { return nil }
            context.strings.append(string)
            context.stringEntries.append(UInt32(context.strings.count - 1))
            return TraceStringID(index: UInt32(context.strings.count - 1))
        }
        guard reference <= UInt64(context.stringEntries.count) else { return nil }
        return TraceStringID(index: context.stringEntries[Int(reference - 1)])
    }
}
