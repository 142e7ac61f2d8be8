import ReactorTraceFormat

/// Per node, every chunk whose events mention it (docs/INSPECT.md, "The index"): as the
/// node an event is about or as the other node it names (a dependency read, an
/// invalidation's source, a parent, an owner, an action's store), which is every event
/// `replay --filter name:` can print for it. Beside each node's chunks, the chunks of the
/// events that create it (with their kind: a line labels a node by the kind it was created
/// with so far) and whether it has value events (whose lines depend on every earlier write).
/// `replay` of a name then reads only the chunks that mention a node of that name.
///
/// Chunk lists are ``IndexChunkList``s. The section is kept as its bytes (trusted under the
/// body's keyed tag, beside the model) and decoded, every figure checked against the chunk
/// table, when a question uses it.
struct IndexedMentions: Sendable, Equatable {
    /// A creation event of a node: its chunk and the kind it gave.
    struct Creation: Sendable, Equatable {
        var chunk: Int
        var kind: TraceNodeKind
    }

    /// One node's mentions.
    struct Node: Sendable, Equatable {
        var id: UInt64
        /// Its creation events, in file order.
        var creations: [Creation]
        /// Whether the trace holds value events of it.
        var hasValues: Bool
        /// The chunks whose events mention it (empty when not asked for).
        var chunks: [Range<Int>]
    }

    /// The section as stored.
    let bytes: [UInt8]

    /// The most the section may take for a trace of `size` bytes: a 25th of it (4%), or 64 KiB
    /// for a small one. Many nodes, each in scattered chunks, could make it larger (a bit a
    /// chunk each): then it is left out, and `replay` of a name reads every stretch.
    static func budget(forTrace size: UInt64) -> UInt64 { max(64 << 10, size / 25) }

    /// Every node the section lists, checked against a chunk table of `batchCount` chunks; the
    /// chunk lists of those `keeping` (given each node's id and creations) refuses are checked, not kept.
    func nodes(batchCount: Int, keeping: (UInt64, [Creation]) -> Bool) throws(TraceIndexError) -> [Node] {
        var fields = IndexFieldReader(bytes)
        var nodes: [Node] = []
        var seen = Set<UInt64>()
        for _ in 0..<(try fields.elements(eachAtLeast: 4)) {
            let id = try fields.next()
            guard seen.insert(id).inserted else { throw .damaged("a node's mentions twice") }
            var creations: [Creation] = []
            var chunk = 0
            for _ in 0..<(try fields.elements(eachAtLeast: 2)) {
                chunk += try fields.count(atMost: UInt64(max(0, batchCount - 1 - chunk)))
                guard chunk < batchCount else { throw .damaged("a position outside the trace") }
                creations.append(Creation(chunk: chunk, kind: try fields.kind(TraceNodeKind.self)))
            }
            let hasValues = try fields.bool()
            let keep = keeping(id, creations)
            let chunks = try IndexChunkList.decode(from: &fields, batchCount: batchCount, keep: keep)
            nodes.append(Node(id: id, creations: creations, hasValues: hasValues, chunks: chunks))
        }
        guard fields.readableBytes == 0 else { throw .damaged("bytes after its mentions") }
        return nodes
    }
}

/// Gathers ``IndexedMentions`` from the batches of a pass, in order: per event, a look at each
/// node it names (one array load and a comparison for the small ids a recorder gives).
struct MentionsCollector {
    /// Ids below this are found by position in an array; larger ones by a dictionary.
    private static let smallIDs: UInt64 = 1 << 22
    private var slotOfSmallID: [Int32] = []
    private var slotOfID: [UInt64: Int32] = [:]
    private var ids: [UInt64] = []
    /// Per slot, the last chunk listed (the one check most events make).
    private var lastChunk: [Int] = []
    private var chunks: [IndexChunkList] = []
    private var creations: [[IndexedMentions.Creation]] = []
    private var hasValues: [Bool] = []

    @inline(__always)
    private mutating func slot(_ id: UInt64) -> Int {
        if id < Self.smallIDs, Int(id) < slotOfSmallID.count {
            let known = slotOfSmallID[Int(id)]
            if known >= 0 { return Int(known) }
        }
        return newSlot(id)
    }

    private mutating func newSlot(_ id: UInt64) -> Int {
        if id < Self.smallIDs {
            let index = Int(id)
            if index >= slotOfSmallID.count {
                slotOfSmallID.append(contentsOf: repeatElement(-1, count: max(index + 1 - slotOfSmallID.count,
                                                                               slotOfSmallID.count)))
            }
            slotOfSmallID[index] = Int32(ids.count)
        } else if let known = slotOfID[id] {
            return Int(known)
        } else {
            slotOfID[id] = Int32(ids.count)
        }
        ids.append(id)
        lastChunk.append(-1)
        chunks.append(IndexChunkList())
        creations.append([])
        hasValues.append(false)
        return ids.count - 1
    }

    /// Node `id` is mentioned in `chunk` (0: no node).
    @inline(__always)
    @discardableResult
    private mutating func mention(_ id: UInt64, _ chunk: Int) -> Int {
        guard id != 0 else { return -1 }
        let slot = slot(id)
        if lastChunk[slot] != chunk {
            lastChunk[slot] = chunk
            chunks[slot].add(chunk)
        }
        return slot
    }

    /// Takes the batch at position `chunk` of the pass.
    mutating func add(_ batch: borrowing TraceEventBatch, chunk: Int) {
        for event in batch.events {
            switch event.record {
            case let .depend(computation, dependency):
                mention(computation, chunk)
                mention(dependency, chunk)
            case let .invalidated(computation, _, source):
                mention(computation, chunk)
                mention(source, chunk)
            case let .rerunBegan(computation, _), let .rerunEnded(computation):
                mention(computation, chunk)
            case let .changed(dependency):
                mention(dependency, chunk)
            case let .value(id, _):
                let slot = mention(id, chunk)
                if slot >= 0 { hasValues[slot] = true }
            case let .nodeCreated(id, kind, _, parent):
                let slot = mention(id, chunk)
                mention(parent, chunk)
                if slot >= 0 { creations[slot].append(.init(chunk: chunk, kind: kind)) }
            case let .nodeNamed(id, _, owner):
                mention(id, chunk)
                mention(owner, chunk)
            case let .nodeStopped(id), let .actionBegan(id, _, _), let .actionEnded(id), let .issue(_, id, _),
                 let .site(id, _, _):
                mention(id, chunk)
            case .flushBegan, .flushEnded:
                break
            }
        }
    }

    /// The section of the pass.
    func mentions() -> IndexedMentions {
        var fields = IndexFieldWriter()
        fields.put(ids.count)
        for slot in ids.indices {
            fields.put(ids[slot])
            fields.put(creations[slot].count)
            var chunk = 0
            for creation in creations[slot] {
                fields.put(creation.chunk - chunk)
                fields.put(UInt64(creation.kind.rawValue))
                chunk = creation.chunk
            }
            fields.put(hasValues[slot])
            var list = chunks[slot]
            list.encode(to: &fields)
        }
        return IndexedMentions(bytes: fields.bytes)
    }
}
