import ReactorTraceFormat

/// Per node, where in the trace its events are (docs/INSPECT.md, "The index"):
/// which chunks (positions in the index's chunk table) hold an event that
/// involves it (any event naming it: its runs, invalidations, reads, changes,
/// values, its creation and naming, an issue or action about it), which hold
/// its value events or its creation and naming, and the names it was given
/// along the way. A question about one node (`history NAME`) then reads only
/// those chunks, each from the snapshot before it.
///
/// Chunk lists are runs (a gap and a length), so that a node in every chunk
/// costs a few bytes, not one a chunk. The section is kept as its bytes and
/// decoded, every figure checked against the chunk table, when a question
/// uses it: a `hot` question does not pay for it.
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
        /// Chunks with an event that involves the node.
        var mentions: [Range<Int>]
        /// Chunks with its value events, or an event that creates or names it.
        var values: [Range<Int>]
        /// Each creation or naming event that changed its display name (the first one included).
        var names: [NameStep]
    }

    /// The section as stored.
    let bytes: [UInt8]

    /// The nodes the section lists, checked against a chunk table of `batchCount` chunks.
    func nodes(batchCount: Int) throws(TraceIndexError) -> [Node] {
        var fields = IndexFieldReader(bytes)
        func runs() throws(TraceIndexError) -> [Range<Int>] {
            var ranges: [Range<Int>] = []
            var end = 0
            for _ in 0..<(try fields.elements(eachAtLeast: 2)) {
                let start = end + (try fields.count(atMost: UInt64(batchCount - end)))
                let length = 1 + (try fields.count(atMost: UInt64(max(0, batchCount - start - 1))))
                guard start + length <= batchCount else { throw .damaged("a position outside the trace") }
                ranges.append(start..<(start + length))
                end = start + length
            }
            return ranges
        }
        var nodes: [Node] = []
        var seen = Set<UInt64>()
        for _ in 0..<(try fields.elements(eachAtLeast: 4)) {
            let id = try fields.next()
            guard seen.insert(id).inserted else { throw .damaged("a node's positions twice") }
            let mentions = try runs(), values = try runs()
            var names: [NameStep] = []
            var chunk = 0
            for _ in 0..<(try fields.elements(eachAtLeast: 2)) {
                chunk += try fields.count(atMost: UInt64(max(0, batchCount - 1 - chunk)))
                guard chunk < batchCount else { throw .damaged("a position outside the trace") }
                names.append(NameStep(chunk: chunk, name: try fields.optionalString()))
            }
            nodes.append(Node(id: id, mentions: mentions, values: values, names: names))
        }
        guard fields.readableBytes == 0 else { throw .damaged("bytes after its positions") }
        return nodes
    }
}

/// Gathers ``IndexedPositions`` from the batches of a pass, in order: per event, a look at
/// the nodes it names (one array load for the small ids a recorder gives).
struct PositionsCollector {
    /// A chunk list as it grows: closed runs as bytes, the open one as figures.
    private struct Runs {
        var bytes: [UInt8] = []
        var count = 0
        var start = -1
        var end = 0
        var closedEnd = 0

        mutating func add(_ chunk: Int) {
            if chunk == end, start >= 0 {
                end += 1
                return
            }
            close()
            start = chunk
            end = chunk + 1
        }

        mutating func close() {
            guard start >= 0 else { return }
            Varint.append(UInt64(start - closedEnd), to: &bytes)
            Varint.append(UInt64(end - start - 1), to: &bytes)
            count += 1
            closedEnd = end
            start = -1
        }
    }

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

    /// Ids below this are found by position in an array; larger ones by a dictionary.
    private static let smallIDs: UInt64 = 1 << 22
    private var slotOfSmallID: [Int32] = []
    private var slotOfID: [UInt64: Int32] = [:]
    private var ids: [UInt64] = []
    /// Per slot, the last chunk that mentioned it (the one check most events make).
    private var lastMention: [Int] = []
    private var lastValue: [Int] = []
    private var mentions: [Runs] = []
    private var values: [Runs] = []
    private var namings: [Naming] = []

    private mutating func slot(_ id: UInt64) -> Int {
        if id < Self.smallIDs {
            let index = Int(id)
            if index < slotOfSmallID.count {
                let known = slotOfSmallID[index]
                if known >= 0 { return Int(known) }
            } else {
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
        lastMention.append(-1)
        lastValue.append(-1)
        mentions.append(Runs())
        values.append(Runs())
        namings.append(Naming())
        return ids.count - 1
    }

    private mutating func mention(_ id: UInt64, _ chunk: Int) {
        guard id != 0 else { return }
        let slot = slot(id)
        guard lastMention[slot] != chunk else { return }
        lastMention[slot] = chunk
        mentions[slot].add(chunk)
    }

    private mutating func value(_ id: UInt64, _ chunk: Int) -> Int {
        let slot = slot(id)
        if lastMention[slot] != chunk {
            lastMention[slot] = chunk
            mentions[slot].add(chunk)
        }
        if lastValue[slot] != chunk {
            lastValue[slot] = chunk
            values[slot].add(chunk)
        }
        return slot
    }

    /// Takes the batch at position `chunk` of the pass.
    mutating func add(_ batch: borrowing TraceEventBatch, chunk: Int) {
        for event in batch.events {
            switch event.record {
            case let .nodeCreated(id, kind, name, parent):
                let slot = value(id, chunk)
                mention(parent, chunk)
                let text = batch.string(name)
                if !text.isEmpty || namings[slot].given.isEmpty { namings[slot].given = text }
                namings[slot].createdKind = kind
                namings[slot].step(id, chunk: chunk)
            case let .nodeNamed(id, name, owner):
                let slot = value(id, chunk)
                mention(owner, chunk)
                namings[slot].given = batch.string(name)
                namings[slot].step(id, chunk: chunk)
            case let .value(id, _):
                _ = value(id, chunk)
            case let .depend(computation, dependency):
                mention(computation, chunk)
                mention(dependency, chunk)
            case let .invalidated(computation, _, source):
                mention(computation, chunk)
                mention(source, chunk)
            case let .nodeStopped(id), let .changed(id), let .rerunBegan(id, _), let .rerunEnded(id),
                 let .actionBegan(id, _, _), let .actionEnded(id), let .issue(_, id, _), let .site(id, _, _):
                mention(id, chunk)
            case .flushBegan, .flushEnded:
                break
            }
        }
    }

    /// The section of the pass.
    func positions() -> IndexedPositions {
        var fields = IndexFieldWriter()
        fields.put(ids.count)
        for slot in ids.indices {
            fields.put(ids[slot])
            for var runs in [mentions[slot], values[slot]] {
                runs.close()
                fields.put(runs.count)
                fields.append(runs.bytes)
            }
            let naming = namings[slot]
            let final = naming.display(ids[slot])
            fields.put(naming.steps.count)
            var chunk = 0
            for step in naming.steps {
                fields.put(step.chunk - chunk)
                fields.put(optional: step.name == final ? nil : step.name)
                chunk = step.chunk
            }
        }
        return IndexedPositions(bytes: fields.bytes)
    }
}
