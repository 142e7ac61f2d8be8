import ReactorTraceFormat

/// The index file: an 8-byte magic, the format version (u16) and two reserved
/// bytes, the body's length (u32), CRC32 (u32) and tag (u64, ``IndexKey``), then the body: varints
/// (docs/INSPECT.md, "The index"): the pass's figures, the chunk table,
/// the whole trace's plain model when the pass built one, beside it the whole trace's profile
/// when a question built one (``IndexedProfile``), and the explanations `why` kept
/// (``KeptExplanations``). Decoding checks every length and figure
/// before anything is used: any byte sequence gives an index or an error.
extension TraceIndex {
    /// `\x89RXIDX\r\n`.
    static let magic: [UInt8] = [0x89, 0x52, 0x58, 0x49, 0x44, 0x58, 0x0D, 0x0A]
    static let prefixLength = 28

    /// The index as the bytes of its file.
    public func encoded() -> [UInt8] {
        var fields = IndexFieldWriter()
        func put(_ value: UInt64) { fields.put(value) }
        func put(_ value: Int) { fields.put(value) }
        put(identity.size); put(UInt64(identity.headCRC)); put(UInt64(identity.tailCRC))
        put(events); put(skippedEvents); put(clockEvents); put(threadCount); put(latestTimestamp)
        put(hasValues ? 1 : 0)
        switch truncation?.reason {
        case nil: put(0)
        case let .truncated(offset)?: put(1); put(offset)
        case let .corruptChunk(offset)?: put(2); put(offset)
        case let .missingEnd(offset)?: put(3); put(offset)
        default: preconditionFailure("only a truncation after the header is indexed (TraceIndex.canIndex)")
        }
        if let truncation { put(truncation.offset) }
        put(trailingBytesOffset.map { UInt64($0) + 1 } ?? 0)
        if let end {
            put(1); put(end.events); put(end.chunks); put(end.durationNanoseconds); put(UInt64(end.threads))
            put(end.eventsDropped); put(UInt64(end.termination.code))
        } else {
            put(0)
        }
        put(batches.count)
        var offset: UInt64 = 0, first: UInt64 = 0
        for batch in batches {
            put(batch.endOffset &- offset)
            put(Varint.zigzagDelta(batch.firstTime, from: first))
            put(batch.lastTime &- batch.firstTime)
            offset = batch.endOffset
            first = batch.firstTime
        }
        put(model == nil ? 0 : 1)
        if let model { fields.append(model.bytes) }
        // The profile's figures share the model: kept only beside it.
        let profile = model == nil ? nil : profile
        put(profile == nil ? 0 : 1)
        if let profile { fields.append(profile.bytes) }
        put(explanations == nil ? 0 : 1)
        if let explanations { fields.put(bytes: explanations.bytes) }
        put(moments == nil ? 0 : 1)
        moments?.encode(to: &fields)
        let allExplanations = model == nil ? nil : allExplanations
        put(allExplanations == nil ? 0 : 1)
        if let allExplanations { fields.put(bytes: allExplanations.bytes) }
        let positions = model == nil ? nil : positions
        put(positions == nil ? 0 : 1)
        if let positions { fields.put(bytes: positions.bytes) }
        let lightPoints = model == nil ? nil : lightPoints
        put(lightPoints == nil ? 0 : 1)
        if let lightPoints { fields.put(bytes: lightPoints.bytes) }
        let mentions = model == nil ? nil : mentions
        put(mentions == nil ? 0 : 1)
        if let mentions { fields.put(bytes: mentions.bytes) }
        let valueRows = model == nil ? nil : valueRows
        put(valueRows == nil ? 0 : 1)
        if let valueRows { fields.put(bytes: valueRows.bytes) }
        let body = fields.bytes
        var bytes = Self.magic
        bytes.appendLittleEndian(Self.version)
        bytes.appendLittleEndian(UInt16(0))
        bytes.appendLittleEndian(UInt32(body.count))
        bytes.appendLittleEndian(CRC32.checksum(body))
        bytes.appendLittleEndian(IndexKey.current?.tag(body) ?? 0)
        return bytes + body
    }

    /// Whether a pass that ended with `truncation` can be indexed (damage after the header).
    static func canIndex(_ truncation: TraceTruncation?) -> Bool {
        switch truncation?.reason {
        case nil, .truncated?, .corruptChunk?, .missingEnd?: true
        default: false
        }
    }

    /// Decodes an index file, checking its structure and that every figure is
    /// possible for a trace of the size it names.
    /// `bytes` are the prefix and the body; `tailLength` bytes of snapshots follow them in the file.
    static func decode(_ bytes: [UInt8], tailLength: UInt64 = 0) throws(TraceIndexError) -> TraceIndex {
        guard bytes.count >= magic.count, Array(bytes[0..<magic.count]) == magic else { throw .notAnIndex }
        var reader = ByteReader(bytes)
        guard reader.skip(magic.count), let version = reader.readInteger(as: UInt16.self), reader.skip(2),
              let length = reader.readInteger(as: UInt32.self), let checksum = reader.readInteger(as: UInt32.self),
              let tag = reader.readInteger(as: UInt64.self)
        else { throw .damaged("cut inside its header") }
        guard version == Self.version else { throw .otherVersion(version) }
        guard Int(length) == reader.readableBytes else { throw .damaged("its length is wrong") }
        let body = Array(bytes[prefixLength...])
        guard CRC32.checksum(body) == checksum else { throw .damaged("bad checksum") }
        // A CRC anyone can recompute; the tag only this user's reader (IndexKey). Without a key,
        // only what reading the trace checks is used: the chunk table, not the model.
        let key = IndexKey.current
        if let key, key.tag(body) != tag { throw .untrusted }
        var fields = IndexFieldReader(body)
        func next() throws(TraceIndexError) -> UInt64 { try fields.next() }
        func count(atMost limit: UInt64) throws(TraceIndexError) -> Int { try fields.count(atMost: limit) }
        let size = try next()
        guard size <= UInt64(Int.max) else { throw .damaged("a figure out of range") }
        let headCRC = try count(atMost: UInt64(UInt32.max)), tailCRC = try count(atMost: UInt64(UInt32.max))
        let identity = Identity(size: size, headCRC: UInt32(headCRC), tailCRC: UInt32(tailCRC))
        // Every event takes at least one byte of the file.
        let events = try count(atMost: size), skipped = try count(atMost: size), clocks = try count(atMost: size)
        let threads = try count(atMost: UInt64(UInt32.max) + 1)
        let latest = try next()
        let hasValues = try count(atMost: 1) == 1
        let truncationKind = try count(atMost: 3)
        var truncation: TraceTruncation?
        if truncationKind > 0 {
            let errorOffset = try count(atMost: size), offset = try count(atMost: size)
            let reason: TraceDecodingError = switch truncationKind {
            case 1: .truncated(offset: errorOffset)
            case 2: .corruptChunk(offset: errorOffset)
            default: .missingEnd(offset: errorOffset)
            }
            truncation = TraceTruncation(offset: offset, reason: reason)
        }
        let trailing = try count(atMost: size)
        var end: TraceEnd?
        if try count(atMost: 1) == 1 {
            let endEvents = try next(), chunks = try next(), duration = try next()
            let endThreads = try count(atMost: UInt64(UInt32.max)), dropped = try next()
            let code = try count(atMost: UInt64(UInt32.max))
            end = TraceEnd(events: endEvents, chunks: chunks, durationNanoseconds: duration, threads: UInt32(endThreads),
                           eventsDropped: dropped, termination: TraceTermination(code: UInt32(code)))
        }
        // Every batch takes at least three bytes here: a hostile count cannot make the table larger than the file.
        let batchCount = try count(atMost: UInt64(fields.readableBytes / 3))
        guard batchCount <= events else { throw .damaged("more chunks than events") }
        var batches: [Batch] = []
        batches.reserveCapacity(batchCount)
        var offset: UInt64 = 0, first: UInt64 = 0
        for _ in 0..<batchCount {
            let step = try next(), firstCode = try next(), span = try next()
            guard step > 0, step <= size - offset else { throw .damaged("a chunk outside the trace") }
            offset += step
            first = Varint.undoZigzagDelta(firstCode, from: first)
            guard span <= latest, first <= latest - span else { throw .damaged("a chunk later than the trace") }
            batches.append(Batch(endOffset: offset, firstTime: first, lastTime: first + span))
        }
        var model: IndexedModel?
        var plain: TraceModel?
        if try fields.bool() {
            let decoded = try TraceModel.decode(from: &fields)
            // The figures the model shares with the pass's report and table must agree.
            guard decoded.eventCount == events, decoded.skippedEvents == skipped, decoded.clockEvents == clocks,
                  decoded.latestTimestampRead == latest, decoded.hasValues == hasValues
            else { throw .damaged("a model that disagrees with its table") }
            plain = decoded
            if key != nil { model = IndexedModel(decoded) }
        }
        var profile: IndexedProfile?
        if try fields.bool() {
            guard let plain else { throw .damaged("a profile without its model") }
            let decoded = try IndexedProfile.decode(from: &fields, model: plain)
            if key != nil { profile = decoded }
        }
        var explanations: KeptExplanations?
        if try fields.bool() {
            let section = try KeptExplanations(decoding: try fields.bytes())
            // Trusted as the model is, and only with it (it names their computations).
            if model != nil { explanations = section }
        }
        var moments: IndexedMoments?
        if try fields.bool() {
            var section = try IndexedMoments.decode(from: &fields, batches: batches)
            guard section.tailLength == tailLength else { throw .damaged("its snapshots' length is wrong") }
            section.tailStart = UInt64(bytes.count)
            // Snapshots are trusted only under this user's key, as the model is.
            if key != nil { moments = section }
        } else if tailLength != 0 {
            throw .damaged("bytes after its body")
        }
        var allExplanations: AllExplanations?
        if try fields.bool() {
            guard plain != nil else { throw .damaged("explanations without their model") }
            let section = AllExplanations(bytes: try fields.bytes())
            // Trusted as the model is, and only with it (it names their computations); decoded when asked.
            if model != nil { allExplanations = section }
        }
        var positions: IndexedPositions?
        if try fields.bool() {
            let section = IndexedPositions(bytes: try fields.bytes())
            // Trusted as the model is, and only with it; checked figure by figure when a question uses it.
            if model != nil { positions = section }
        }
        var lightPoints: IndexedLightPoints?
        if try fields.bool() {
            let section = IndexedLightPoints(bytes: try fields.bytes())
            // Trusted as the model is, and only with it (it holds their actions); checked when a question uses them.
            if model != nil { lightPoints = section }
        }
        var mentions: IndexedMentions?
        if try fields.bool() {
            let section = IndexedMentions(bytes: try fields.bytes())
            // Trusted as the model is, and only with it; checked figure by figure when a question uses it.
            if model != nil { mentions = section }
        }
        var valueRows: IndexedValueRows?
        if try fields.bool() {
            let section = IndexedValueRows(bytes: try fields.bytes())
            // Trusted as the model is, and only with it (it holds their actions); checked when a question uses them.
            if model != nil { valueRows = section }
        }
        guard fields.readableBytes == 0 else { throw .damaged("bytes after its table") }
        var index = TraceIndex(identity: identity, events: events, skippedEvents: skipped, clockEvents: clocks,
                               truncation: truncation, trailingBytesOffset: trailing == 0 ? nil : trailing - 1,
                               end: end, threadCount: threads, latestTimestamp: latest, hasValues: hasValues,
                               batches: batches, model: model, explanations: explanations, moments: moments)
        index.profile = profile
        index.allExplanations = allExplanations
        index.positions = positions
        index.lightPoints = lightPoints
        index.mentions = mentions
        index.valueRows = valueRows
        return index
    }
}
