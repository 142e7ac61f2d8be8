import ReactorTraceFormat

/// Per node with value events, its values as rows (docs/INSPECT.md, "The index"): each value
/// event's time, value and the action at the root of its write, as the pass that built the
/// index gave them, and each display name the node took with where it took it among the value
/// events. `history NAME` then follows the nodes a pass would follow from where it would start
/// following them, and reads no chunk of the trace.
///
/// Rows take as many nodes as fit the section's budget (``ValueRowsCollector``): a node dropped
/// is listed without them, and a question that would follow it answers as before (from the
/// positions, or by a pass). The section is kept as its bytes and decoded, every figure checked,
/// when a question uses it.
///
/// Layout: the pass's value events and creation or naming events (counts), the value texts,
/// then per node its id, its name steps (value events before it, creation or naming events
/// before it, both as deltas, and the name), whether it has rows and, if so, its rows as a run
/// of bytes (their count, then per row the value event's position as a delta, its time as a
/// zigzag delta, its value's position in the texts and its root action's position plus one).
struct IndexedValueRows: Sendable, Equatable {
    /// The section as stored.
    let bytes: [UInt8]

    /// The most the section may take for a trace of `size` bytes: a 25th of it (4%), or
    /// 64 KiB for a small one (the collector keeps it near half that).
    static func budget(forTrace size: UInt64) -> UInt64 { max(64 << 10, size / 25) }

    /// The values a pass of `history target` records, in file order, each with its root
    /// action's position (-1: none); nil when a node that pass would follow has no rows here.
    /// `actionCount`: the kept model's actions, which roots index; `knows`: whether the kept
    /// model has a node of that id.
    func history(of target: String, actionCount: Int, knows: (UInt64) -> Bool) throws(TraceIndexError)
        -> [(node: UInt64, time: UInt64, value: String, root: Int32)]? {
        var fields = IndexFieldReader(bytes)
        let valueEvents = try fields.int(), nameEvents = try fields.int()
        let texts = try fields.strings()
        var keyed: [(ordinal: Int, phase: Int, event: Int, node: UInt64, time: UInt64, value: Int, root: Int32)] = []
        var seen = Set<UInt64>()
        var followsDropped = false
        for _ in 0..<(try fields.elements(eachAtLeast: 3)) {
            let id = try fields.next()
            guard seen.insert(id).inserted else { throw .damaged("a node's value rows twice") }
            let byID = "#\(id)" == target
            var entry: (ordinal: Int, event: Int)?
            var ordinal = 0, event = 0
            for _ in 0..<(try fields.elements(eachAtLeast: 3)) {
                ordinal += try fields.count(atMost: UInt64(valueEvents - ordinal))
                event += try fields.count(atMost: UInt64(max(0, nameEvents - 1 - event)))
                let name = try fields.string()
                if entry == nil, byID || name == target { entry = (ordinal, event) }
            }
            guard try fields.bool() else {
                // Dropped: a pass would follow it, and its values are not here. The rest is
                // still read, so that a damaged section is noticed whichever node is asked.
                if entry != nil { followsDropped = true }
                continue
            }
            let block = try fields.bytes()
            guard let entry else { continue }
            guard knows(id) else { throw .damaged("value rows of an unknown node") }
            var rows = IndexFieldReader(block)
            var position = 0, time: UInt64 = 0
            // The node's value when the pass starts following it: the latest in time order so far, ties in file order.
            var current: (time: UInt64, value: Int, root: Int32)?
            for row in 0..<(try rows.elements(eachAtLeast: 4)) {
                // The first row's position, then each one's step from the one before.
                let step = try rows.count(atMost: UInt64(valueEvents - position))
                guard step > 0 || row == 0 else { throw .damaged("value rows out of order") }
                position += step
                guard position < valueEvents else { throw .damaged("a value row outside the trace") }
                time = Varint.undoZigzagDelta(try rows.next(), from: time)
                let value = try rows.count(atMost: UInt64(max(0, texts.count - 1)))
                guard value < texts.count else { throw .damaged("a value row's text out of range") }
                let root = Int32(try rows.count(atMost: UInt64(actionCount))) - 1
                if position < entry.ordinal {
                    if time >= current?.time ?? 0 { current = (time, value, root) }
                } else {
                    keyed.append((position, 1, 0, id, time, value, root))
                }
            }
            guard rows.readableBytes == 0 else { throw .damaged("bytes after a node's value rows") }
            if let current {
                keyed.append((entry.ordinal, 0, entry.event, id, current.time, current.value, current.root))
            }
        }
        guard fields.readableBytes == 0 else { throw .damaged("bytes after its value rows") }
        if followsDropped { return nil }
        keyed.sort { ($0.ordinal, $0.phase, $0.event) < ($1.ordinal, $1.phase, $1.event) }
        return keyed.map { ($0.node, $0.time, texts[$0.value], $0.root) }
    }
}
