import ReactorTraceFormat

/// A light resume point per chunk (docs/INSPECT.md, "The index"): what it takes to
/// read one chunk alone and get a pass's answers about its events' root actions
/// (``TraceModelBuilder/startReadingLightPoints(actions:)``), instead of a snapshot
/// of the whole model and a read on from it.
///
/// Per chunk of the chunk table: its thread, where its block begins, its sequence number,
/// whether it opens a fresh context (else the reader's context is rebuilt by reading the
/// thread's chunks from the latest one that does), the thread's latest event time before
/// it, and the runs and actions open on its thread before it (node ids, begin times, the
/// action and root action by position in the kept model's action table). Beside them,
/// every creation event that makes a node a computed or unmakes one (a value's root
/// depends on whether its node is a computed). No model, no string: names come from the
/// kept model. The section is kept as its bytes (trusted under the body's keyed tag) and
/// decoded, every figure checked against the chunk table, when a question uses it.
struct IndexedLightPoints: Sendable, Equatable {
    /// One chunk's point.
    struct Chunk: Equatable {
        var thread: UInt32
        /// The offset of the chunk's block.
        var start: UInt64
        var sequence: UInt32
        var fresh: Bool
        /// The thread's latest event time before the chunk.
        var eventTime: UInt64
        /// Runs and actions open on the thread before the chunk, outermost first.
        var frames: [TraceModelBuilder.LightFrame]
    }

    /// A creation event that made node `id` a computed (or not).
    struct Creation: Equatable {
        var chunk: Int
        var id: UInt64
        var computed: Bool
    }

    /// The section as stored.
    let bytes: [UInt8]

    /// The most the section may take for a trace of `size` bytes: a 50th of it (2 %). Runs and
    /// actions deeply nested at every chunk's start, or chunks of a few events, could make it
    /// larger: then it is left out, and `history` reads on from snapshots.
    static func budget(forTrace size: UInt64) -> UInt64 { size / 50 }

    /// The points of an index of `batches` whose kept model has `actionCount` actions,
    /// every figure checked.
    func decode(batches: [TraceIndex.Batch], actionCount: Int) throws(TraceIndexError)
        -> (chunks: [Chunk], creations: [Creation]) {
        var fields = IndexFieldReader(bytes)
        guard try fields.count(atMost: UInt64(batches.count)) == batches.count else {
            throw .damaged("light points of another chunk table")
        }
        var chunks: [Chunk] = []
        chunks.reserveCapacity(batches.count)
        var sequences: [UInt32: UInt32] = [:]
        var previousEnd: UInt64 = 0
        for position in batches.indices {
            let batch = batches[position]
            let thread = UInt32(try fields.count(atMost: UInt64(UInt32.max)))
            let length = try fields.next()
            guard length > UInt64(TraceFormat.blockHeaderLength), length <= batch.endOffset - previousEnd else {
                throw .damaged("a chunk's block outside the trace")
            }
            previousEnd = batch.endOffset
            let fresh = try fields.bool()
            let step = try fields.count(atMost: UInt64(UInt32.max))
            let sequence = (sequences[thread] ?? 0) &+ UInt32(step)
            sequences[thread] = sequence
            let eventTime = Varint.undoZigzagDelta(try fields.next(), from: batch.firstTime)
            var frames: [TraceModelBuilder.LightFrame] = []
            for _ in 0..<(try fields.elements(eachAtLeast: 4)) {
                let flags = try fields.count(atMost: 3)
                let isAction = flags & 1 != 0
                let node = try fields.next()
                let action = isAction ? Int32(try fields.count(atMost: UInt64(max(0, actionCount - 1)))) : -1
                let root = Int32(try fields.count(atMost: UInt64(actionCount))) - 1
                let begin = Varint.undoZigzagDelta(try fields.next(), from: batch.firstTime)
                frames.append(.init(isAction: isAction, node: node, action: action, root: root, begin: begin,
                                    firstRun: flags & 2 != 0))
            }
            chunks.append(Chunk(thread: thread, start: batch.endOffset - length, sequence: sequence,
                                fresh: fresh, eventTime: eventTime, frames: frames))
        }
        var creations: [Creation] = []
        var chunk = 0
        for _ in 0..<(try fields.elements(eachAtLeast: 3)) {
            chunk += try fields.count(atMost: UInt64(max(0, batches.count - 1 - chunk)))
            creations.append(Creation(chunk: chunk, id: try fields.next(), computed: try fields.bool()))
        }
        guard fields.readableBytes == 0 else { throw .damaged("bytes after its light points") }
        return (chunks, creations)
    }
}

/// Gathers ``IndexedLightPoints`` from a pass of a builder that numbers actions, in
/// order: after each batch, the point of its chunk (its thread's state as the thread's
/// previous chunk left it) and its thread's state now for the next.
struct LightPointsCollector {
    private var fields = IndexFieldWriter()
    private var chunks = 0
    private var sequences: [UInt32: UInt32] = [:]
    private var frames: [UInt32: [TraceModelBuilder.LightFrame]] = [:]
    private var eventTimes: [UInt32: UInt64] = [:]
    private var creations = IndexFieldWriter()
    private var creationCount = 0
    private var lastCreationChunk = 0
    /// Nodes created as computeds so far: their later creations matter too.
    private var computeds = Set<UInt64>()
    /// False once a chunk could not be described: no section.
    private var complete = true

    /// A creation event (node `id` created as `kind`) of the batch at position `chunk` of the pass,
    /// as ``IndexPassCollector`` hands them on, in order.
    mutating func created(_ id: UInt64, kind: TraceNodeKind, chunk: Int) {
        let computed = kind == .computed
        guard computed || computeds.contains(id) else { return }
        if computed { computeds.insert(id) }
        creations.put(chunk - lastCreationChunk)
        creations.put(id)
        creations.put(computed)
        lastCreationChunk = chunk
        creationCount += 1
    }

    /// After the pass's builder took the batch `batch`, which `reader` just read.
    mutating func ended(_ batch: TraceIndex.Batch, builder: TraceModelBuilder, reader: TraceReader) {
        chunks += 1
        guard complete, let chunk = reader.lastChunk, UInt64(chunk.offset) < batch.endOffset else {
            complete = false
            return
        }
        let thread = chunk.thread
        fields.put(UInt64(thread))
        fields.put(batch.endOffset - UInt64(chunk.offset))
        fields.put(chunk.fresh)
        fields.put(UInt64(chunk.sequence &- (sequences[thread] ?? 0)))
        sequences[thread] = chunk.sequence
        fields.put(Varint.zigzagDelta(eventTimes[thread] ?? 0, from: batch.firstTime))
        let open = frames[thread] ?? []
        fields.put(open.count)
        for frame in open {
            fields.put((frame.isAction ? 1 : 0) | (frame.firstRun ? 2 : 0))
            fields.put(frame.node)
            if frame.isAction { fields.put(Int(frame.action)) }
            fields.put(Int(frame.root) + 1)
            fields.put(Varint.zigzagDelta(frame.begin, from: batch.firstTime))
        }
        frames[thread] = builder.lightFrames(ofThread: thread)
        eventTimes[thread] = reader.eventTime(ofThread: thread) ?? 0
    }

    /// The section of the pass, or nil when a chunk could not be described.
    func lightPoints() -> IndexedLightPoints? {
        guard complete else { return nil }
        var section = IndexFieldWriter()
        section.put(chunks)
        section.append(fields.bytes)
        section.put(creationCount)
        section.append(creations.bytes)
        return IndexedLightPoints(bytes: section.bytes)
    }
}
