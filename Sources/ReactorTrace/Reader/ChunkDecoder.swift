import ReactorCore

/// Decodes the events of one chunk (docs/TRACE_FORMAT.md, "Events").
struct ChunkDecoder {
    /// A thread's decoding state, carried from chunk to chunk until a chunk
    /// starts a fresh context.
    struct Context {
        var nextSequence: UInt32
        var time: UInt64 = 0
        var computation: UInt64 = 0
        var dependency: UInt64 = 0
        var node: UInt64 = 0
        var strings: [String] = []
        /// False while validating: strings are counted, not built.
        var materialize = true

        init(nextSequence: UInt32) { self.nextSequence = nextSequence }
    }

    /// Checks that `payload` holds exactly `count` well-formed events for
    /// `context`, without building them; returns how many events of unknown
    /// kinds it holds, or nil if it is malformed.
    func validate(_ payload: [UInt8], count: Int, context: Context) -> Int? {
        var probe = context
        probe.materialize = false
        var nothing: [TraceEvent] = []
        var index = 0
        guard let skipped = decode(payload, from: &index, count: count, thread: 0, context: &probe, into: &nothing),
              index == payload.count else { return nil }
        return skipped
    }

    /// Decodes `count` events of `payload` from byte `index` on, appending the
    /// known ones to `events` and moving `index` past them; returns how many
    /// events of unknown kinds were skipped, or nil if malformed.
    func decode(_ payload: [UInt8], from index: inout Int, count: Int, thread: UInt32, context: inout Context,
                into events: inout [TraceEvent]) -> Int? {
        payload.withUnsafeBufferPointer { buffer in
            var reader = UnsafeByteReader(buffer)
            guard reader.skip(index) else { return nil }
            defer { index = reader.readerIndex }
            return decode(&reader, count: count, thread: thread, context: &context, into: &events)
        }
    }

    private func decode(_ reader: inout UnsafeByteReader, count: Int, thread: UInt32, context: inout Context,
                        into events: inout [TraceEvent]) -> Int? {
        var skipped = 0
        for _ in 0..<count {
            guard let tag = reader.readByte() else { return nil }
            if tag >= TraceFormat.firstExtensionTag {
                guard let length = reader.readVarint(), length <= UInt64(reader.readableBytes),
                      reader.skip(Int(length)) else { return nil }
                skipped += 1
                continue
            }
            guard let kind = TraceEventKind(rawValue: tag) else { return nil }
            switch decodeRecord(kind, &reader, &context, thread, &events) {
            case .decoded: break
            case .unknownValue: skipped += 1
            case .malformed: return nil
            }
        }
        return skipped
    }

    /// What decoding one event came to.
    private enum Outcome {
        /// Appended to the events (or, while validating, well formed).
        case decoded
        /// Well formed, but naming an enum value this version does not know
        /// (a node kind, cause or issue kind): skipped.
        case unknownValue
        case malformed
    }

    /// Decodes one event of `kind` and appends it straight to `events` (no
    /// intermediate copies of the record).
    @inline(__always)
    private func decodeRecord(_ kind: TraceEventKind, _ reader: inout UnsafeByteReader, _ context: inout Context,
                              _ thread: UInt32, _ events: inout [TraceEvent]) -> Outcome {
        @inline(__always)
        func emit(_ record: TraceRecord, _ context: Context, _ events: inout [TraceEvent]) -> Outcome {
            if context.materialize { events.append(TraceEvent(timestamp: context.time, thread: thread, record: record)) }
            return .decoded
        }
        switch kind {
        case .nodeCreated:
            guard let rawKind = reader.readByte(),
                  let id = readID(&reader, &context.node),
                  let name = readString(&reader, &context),
                  let parent = readOptionalID(&reader, &context.node),
                  readTime(&reader, &context) else { return .malformed }
            guard let nodeKind = TraceNodeKind(rawValue: rawKind) else { return .unknownValue }
            return emit(.nodeCreated(id: id, kind: nodeKind, name: name, parent: parent), context, &events)
        case .nodeNamed:
            guard let id = readID(&reader, &context.node),
                  let name = readString(&reader, &context),
                  let owner = readOptionalID(&reader, &context.node) else { return .malformed }
            return emit(.nodeNamed(id: id, name: name, owner: owner), context, &events)
        case .nodeStopped:
            guard let id = readID(&reader, &context.node), readTime(&reader, &context) else { return .malformed }
            return emit(.nodeStopped(id: id), context, &events)
        case .depend:
            guard let computation = readID(&reader, &context.computation),
                  let dependency = readID(&reader, &context.dependency) else { return .malformed }
            return emit(.depend(computation: computation, dependency: dependency), context, &events)
        case .changed:
            guard let dependency = readID(&reader, &context.dependency) else { return .malformed }
            return emit(.changed(dependency: dependency), context, &events)
        case .invalidated:
            guard let computation = readID(&reader, &context.computation),
                  let packed = reader.readVarint() else { return .malformed }
            let source = Self.optionalID(packed &>> 3, &context.dependency)
            guard let cause = InvalidationCause(rawValue: UInt8(packed & 0x7)) else { return .unknownValue }
            return emit(.invalidated(computation: computation, cause: cause, source: source), context, &events)
        case .rerunBegan:
            guard let packed = reader.readVarint(), readTime(&reader, &context) else { return .malformed }
            let computation = Varint.undoZigzagDelta(packed &>> 1, from: context.computation)
            context.computation = computation
            return emit(.rerunBegan(computation: computation, firstRun: packed & 1 == 1), context, &events)
        case .rerunEnded:
            guard let computation = readID(&reader, &context.computation), readTime(&reader, &context) else { return .malformed }
            return emit(.rerunEnded(computation: computation), context, &events)
        case .actionBegan:
            guard let store = readID(&reader, &context.node),
                  let name = readString(&reader, &context),
                  let arguments = readString(&reader, &context),
                  readTime(&reader, &context) else { return .malformed }
            return emit(.actionBegan(store: store, name: name, arguments: arguments), context, &events)
        case .actionEnded:
            guard let store = readID(&reader, &context.node), readTime(&reader, &context) else { return .malformed }
            return emit(.actionEnded(store: store), context, &events)
        case .flushBegan:
            guard readTime(&reader, &context) else { return .malformed }
            return emit(.flushBegan, context, &events)
        case .flushEnded:
            guard readTime(&reader, &context) else { return .malformed }
            return emit(.flushEnded, context, &events)
        case .issue:
            guard let rawKind = reader.readByte(),
                  let node = readOptionalID(&reader, &context.node),
                  let message = readString(&reader, &context),
                  readTime(&reader, &context) else { return .malformed }
            guard let issueKind = TraceIssueKind(rawValue: rawKind) else { return .unknownValue }
            return emit(.issue(kind: issueKind, node: node, message: message), context, &events)
        }
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
        return true
    }

    private func readString(_ reader: inout UnsafeByteReader, _ context: inout Context) -> String? {
        guard let reference = reader.readVarint() else { return nil }
        if reference == 0 {
            guard let length = reader.readVarint(), length <= UInt64(reader.readableBytes),
                  let string = context.materialize ? reader.readString(Int(length)) : (reader.skip(Int(length)) ? "" : nil)
            else { return nil }
            context.strings.append(string)
            return string
        }
        guard reference <= UInt64(context.strings.count) else { return nil }
        return context.strings[Int(reference - 1)]
    }
}
