import ReactorTraceFormat

/// Per node, where in the trace its values are (docs/INSPECT.md, "The index"):
/// which chunks (positions in the index's chunk table) hold its value events or
/// the events that create or name it, and the names it was given along the
/// way. A question about one node's values (`history NAME`) then reads only
/// those chunks, each from the snapshot before it.
///
/// A chunk list is stored as runs (a gap and a length: a node in every chunk
/// costs a few bytes) or as a bitmap from its first chunk (a node in every
/// few chunks, as one thread's writes among four threads' chunks: a bit a
/// chunk), whichever is smaller. The section is kept as its bytes and decoded,
/// every figure checked against the chunk table, when a question uses it: a
/// `hot` question does not pay for it.
struct IndexedPositions: Sendable, Equatable {
    /// A display name a node took at a creation or naming event (``TraceNode/name``).
    struct NameStep: Sendable, Equatable {
        /// The chunk of the event.
        var chunk: Int
        /// The name, or nil for the node's final name (the kept model's).
        var name: String?
    }

    /// One node's positions.
    struct Node: Sendable, Equatable {
        var id: UInt64
        /// Chunks with its value events, or an event that creates or names it.
        var values: [Range<Int>]
        /// Each creation or naming event that changed its display name (the first one included).
        var names: [NameStep]
    }

    /// The section as stored.
    let bytes: [UInt8]

    /// The most the section may take for a trace of `size` bytes: a 25th of it (4%), or 64 KiB
    /// for a small one. Nodes in few, scattered chunks each (many nodes, each touched now and
    /// then) could make it larger than that: then it is left out, and `history` reads the trace.
    static func budget(forTrace size: UInt64) -> UInt64 { max(64 << 10, size / 25) }

    /// The nodes the section lists, checked against a chunk table of `batchCount` chunks;
    /// the chunk lists of those `keeping` (given each node's id and names) refuses are checked, not kept.
    func nodes(batchCount: Int, keeping: (UInt64, [NameStep]) -> Bool = { _, _ in true }) throws(TraceIndexError)
        -> [Node] {
        var fields = IndexFieldReader(bytes)
        var nodes: [Node] = []
        var seen = Set<UInt64>()
        for _ in 0..<(try fields.elements(eachAtLeast: 4)) {
            let id = try fields.next()
            guard seen.insert(id).inserted else { throw .damaged("a node's positions twice") }
            var names: [NameStep] = []
            var chunk = 0
            for _ in 0..<(try fields.elements(eachAtLeast: 2)) {
                chunk += try fields.count(atMost: UInt64(max(0, batchCount - 1 - chunk)))
                guard chunk < batchCount else { throw .damaged("a position outside the trace") }
                names.append(NameStep(chunk: chunk, name: try fields.optionalString()))
            }
            let keep = keeping(id, names)
            let values = try IndexChunkList.decode(from: &fields, batchCount: batchCount, keep: keep)
            if keep { nodes.append(Node(id: id, values: values, names: names)) }
        }
        guard fields.readableBytes == 0 else { throw .damaged("bytes after its positions") }
        return nodes
    }
}

/// Gathers ``IndexedPositions`` from the events of a pass, in order, as ``IndexPassCollector``
/// hands them on: a node's first value event in each chunk, and every creation and naming event.
struct PositionsCollector {
    /// What a pass knows of a node's display name (``TraceNode/name``), as the importer computes it.
    private struct Naming {
        var given = ""
        var createdKind: TraceNodeKind?
        var steps: [(chunk: Int, name: String)] = []

        func display(_ id: UInt64) -> String { given.isEmpty ? TraceNode.unnamed(id, createdAs: createdKind) : given }

        mutating func step(_ id: UInt64, chunk: Int) {
            let name = display(id)
            if steps.last?.name != name { steps.append((chunk, name)) }
        }
    }

    private var nodes = NodeSlots()
    private var values: [IndexChunkList] = []
    private var namings: [Naming] = []

    /// Node `id`'s slot, made on its first value, creation or naming event (the order the section lists nodes in).
    mutating func slot(_ id: UInt64) -> Int {
        let (slot, isNew) = nodes.slot(id)
        if isNew {
            values.append(IndexChunkList())
            namings.append(Naming())
        }
        return slot
    }

    /// A value event of node `id` in the chunk at position `chunk` (``IndexPassCollector``
    /// tells only the first of a node's in a chunk, by its ``slot(_:)``).
    @discardableResult
    mutating func value(_ id: UInt64, chunk: Int) -> Int {
        let slot = slot(id)
        value(slot: slot, chunk: chunk)
        return slot
    }

    /// A value event of the node at `slot` in the chunk at position `chunk`.
    mutating func value(slot: Int, chunk: Int) {
        values[slot].add(chunk)
    }

    /// A creation event of node `id` in the chunk at position `chunk`.
    mutating func created(_ id: UInt64, kind: TraceNodeKind, name text: String, chunk: Int) {
        let slot = value(id, chunk: chunk)
        if !text.isEmpty || namings[slot].given.isEmpty { namings[slot].given = text }
        namings[slot].createdKind = kind
        namings[slot].step(id, chunk: chunk)
    }

    /// A naming event of node `id` in the chunk at position `chunk`.
    mutating func named(_ id: UInt64, name text: String, chunk: Int) {
        let slot = value(id, chunk: chunk)
        namings[slot].given = text
        namings[slot].step(id, chunk: chunk)
    }

    /// The section of the pass.
    func positions() -> IndexedPositions {
        var fields = IndexFieldWriter()
        fields.put(nodes.ids.count)
        for slot in nodes.ids.indices {
            fields.put(nodes.ids[slot])
            let naming = namings[slot]
            let final = naming.display(nodes.ids[slot])
            fields.put(naming.steps.count)
            var chunk = 0
            for step in naming.steps {
                fields.put(step.chunk - chunk)
                fields.put(optional: step.name == final ? nil : step.name)
                chunk = step.chunk
            }
            var runs = values[slot]
            runs.encode(to: &fields)
        }
        return IndexedPositions(bytes: fields.bytes)
    }
}
