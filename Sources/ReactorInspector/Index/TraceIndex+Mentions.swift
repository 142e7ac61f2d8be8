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

/// Gathers ``IndexedMentions`` from the events of a pass, in order, as ``IndexPassCollector``
/// hands them on: per node, its first mention in each chunk (a node an event is about or names),
/// its first value event in each chunk, and its creation events. The lists grow once per node and chunk.
struct MentionsCollector {
    private var nodes = NodeSlots()
    private var chunks: [IndexChunkList] = []
    private var creations: [[IndexedMentions.Creation]] = []
    private var hasValues: [Bool] = []

    /// Node `id`'s slot (never 0's), made on its first mention (the order the section lists nodes in).
    mutating func slot(_ id: UInt64) -> Int {
        let (slot, isNew) = nodes.slot(id)
        if isNew {
            chunks.append(IndexChunkList())
            creations.append([])
            hasValues.append(false)
        }
        return slot
    }

    /// An event in the chunk at position `chunk` names node `id` (0: no node).
    mutating func mentioned(_ id: UInt64, chunk: Int) {
        guard id != 0 else { return }
        mentioned(slot: slot(id), chunk: chunk)
    }

    /// An event in the chunk at position `chunk` names the node at `slot`.
    mutating func mentioned(slot: Int, chunk: Int) {
        chunks[slot].add(chunk)
    }

    /// A value event of node `id`, after its mention.
    mutating func valued(_ id: UInt64) {
        guard id != 0 else { return }
        hasValues[slot(id)] = true
    }

    /// A value event of the node at `slot`, after its mention.
    mutating func valued(slot: Int) {
        hasValues[slot] = true
    }

    /// A creation event of node `id` as `kind` in the chunk at position `chunk`, after its mention.
    mutating func created(_ id: UInt64, kind: TraceNodeKind, chunk: Int) {
        guard id != 0 else { return }
        creations[slot(id)].append(.init(chunk: chunk, kind: kind))
    }

    /// The section of the pass.
    func mentions() -> IndexedMentions {
        var fields = IndexFieldWriter()
        fields.put(nodes.ids.count)
        for slot in nodes.ids.indices {
            fields.put(nodes.ids[slot])
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
