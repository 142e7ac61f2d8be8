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

/// Gathers ``IndexedMentions`` from the batches of a pass, in order: per event, for each node
/// it names, one load and a comparison (the chunk that last mentioned it, by id for the small
/// ids a recorder gives); the lists grow once per node and chunk.
struct MentionsCollector {
    /// Ids below this have their last chunk found by position in an array; larger ones go the slow way.
    private static let smallIDs: UInt64 = 1 << 22
    /// Per small id, the last chunk that mentioned it and the last with a value event of it (-1: none yet).
    private var lastChunkOfSmallID: [Int32] = []
    private var lastValueChunkOfSmallID: [Int32] = []
    private var slotOfSmallID: [Int32] = []
    private var slotOfID: [UInt64: Int32] = [:]
    private var ids: [UInt64] = []
    /// Per slot, the last chunk listed.
    private var lastChunk: [Int] = []
    private var chunks: [IndexChunkList] = []
    private var creations: [[IndexedMentions.Creation]] = []
    private var hasValues: [Bool] = []
    /// Nodes met in the batch being taken that the fast look did not settle.
    private var met: [UInt64] = []

    private mutating func slot(_ id: UInt64) -> Int {
        if id < Self.smallIDs {
            if Int(id) >= slotOfSmallID.count {
                // Seen by id from now on.
                let more = max(Int(id) + 1 - slotOfSmallID.count, slotOfSmallID.count)
                slotOfSmallID.append(contentsOf: repeatElement(-1, count: more))
                lastChunkOfSmallID.append(contentsOf: repeatElement(-1, count: more))
                lastValueChunkOfSmallID.append(contentsOf: repeatElement(-1, count: more))
            }
            let known = slotOfSmallID[Int(id)]
            if known >= 0 { return Int(known) }
            slotOfSmallID[Int(id)] = Int32(ids.count)
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

    /// Takes the batch at position `chunk` of the pass.
    mutating func add(_ batch: borrowing TraceEventBatch, chunk: Int) {
        let current = Int32(truncatingIfNeeded: chunk)
        var met = self.met
        met.removeAll(keepingCapacity: true)
        var valued: [UInt64] = [], created: [(UInt64, TraceNodeKind)] = []
        // Moved out while the loop writes them, so that each write finds them unshared.
        var lastMention = lastChunkOfSmallID, lastValue = lastValueChunkOfSmallID
        lastChunkOfSmallID = []
        lastValueChunkOfSmallID = []
        lastMention.withUnsafeMutableBufferPointer { lastMention in
            lastValue.withUnsafeMutableBufferPointer { lastValue in
                // In registers for the loop: base addresses and counts.
                let lastMention = lastMention, lastValue = lastValue
                let small = UInt64(lastMention.count)
                for event in batch.events {
                    // Up to two nodes an event names; 0 for none.
                    var first: UInt64 = 0, second: UInt64 = 0
                    switch event.record {
                    case let .depend(computation, dependency):
                        (first, second) = (computation, dependency)
                    case let .invalidated(computation, _, source):
                        (first, second) = (computation, source)
                    case let .rerunBegan(computation, _), let .rerunEnded(computation):
                        first = computation
                    case let .changed(dependency):
                        first = dependency
                    case let .value(id, _):
                        first = id
                        if id < small {
                            if lastValue[Int(id)] != current {
                                lastValue[Int(id)] = current
                                valued.append(id)
                            }
                        } else if id != 0 {
                            valued.append(id)
                        }
                    case let .nodeCreated(id, kind, _, parent):
                        (first, second) = (id, parent)
                        created.append((id, kind))
                    case let .nodeNamed(id, _, owner):
                        (first, second) = (id, owner)
                    case let .nodeStopped(id), let .actionBegan(id, _, _), let .actionEnded(id), let .issue(_, id, _),
                         let .site(id, _, _):
                        first = id
                    case .flushBegan, .flushEnded:
                        continue
                    }
                    if first < small {
                        if lastMention[Int(first)] != current {
                            lastMention[Int(first)] = current
                            met.append(first)
                        }
                    } else {
                        met.append(first)
                    }
                    if second < small {
                        if lastMention[Int(second)] != current {
                            lastMention[Int(second)] = current
                            met.append(second)
                        }
                    } else {
                        met.append(second)
                    }
                }
            }
        }
        lastChunkOfSmallID = lastMention
        lastValueChunkOfSmallID = lastValue
        for id in met where id != 0 {
            let slot = slot(id)
            if id < Self.smallIDs { lastChunkOfSmallID[Int(id)] = current }
            if lastChunk[slot] != chunk {
                lastChunk[slot] = chunk
                chunks[slot].add(chunk)
            }
        }
        for id in valued where id != 0 {
            hasValues[slot(id)] = true
            if id < Self.smallIDs { lastValueChunkOfSmallID[Int(id)] = current }
        }
        for (id, kind) in created where id != 0 { creations[slot(id)].append(.init(chunk: chunk, kind: kind)) }
        self.met = met
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
