import ReactorTraceFormat

/// Gathers ``IndexedValueRows`` from the value, creation and naming events of an index's
/// pass, as the pass's builder applies them (``TraceModelBuilder/valueRows``): each value
/// event with the root action the builder gave it, and each display name a node took.
///
/// The section holds as many nodes' rows as fit its budget: whenever the rows kept pass the
/// share of it the bytes read so far allow (the budget times the part of the trace read, at
/// least a 16th of it), the node with the most is dropped (listed without rows from then on:
/// its `history` reads the trace). A node whose values run all through the trace is dropped
/// as soon as its share shows, not after its rows filled the budget, so a pass holds and
/// writes little more than the rows it keeps, and a node dropped costs one load per value
/// event after that.
final class ValueRowsCollector {
    /// A display name a node took at a creation or naming event: how many value events and
    /// creation or naming events came before it.
    struct Step {
        var ordinal: Int
        var event: Int
        var name: String
    }

    /// What the pass gathered for one node position of the builder.
    struct Node {
        /// Its rows as the section writes them (``IndexedValueRows``), but each value as its
        /// number in ``ValueRowsCollector/texts`` (renumbered when the section is written): a
        /// few bytes a row, so a pass holds little more than the bytes it writes.
        var rows: [UInt8] = []
        var count = 0
        /// The last row's value event position and time (the next row's deltas start there).
        var ordinal = 0
        var time: UInt64 = 0
        /// An estimate of its rows' encoded bytes: theirs, and the texts first seen in them.
        var size = 0
        /// Whether any value event came, and whether it was dropped.
        var valued = false
        var dropped = false
        var steps: [Step] = []

        /// Appends a row; returns the bytes it took.
        @inline(__always)
        mutating func append(ordinal: Int, time: UInt64, value: Int32, root: Int32) -> Int {
            let before = rows.count
            Node.put(UInt64(ordinal &- self.ordinal), to: &rows)
            Node.put(Varint.zigzagDelta(time, from: self.time), to: &rows)
            Node.put(UInt64(value), to: &rows)
            Node.put(UInt64(root &+ 1), to: &rows)
            self.ordinal = ordinal
            self.time = time
            count += 1
            return rows.count &- before
        }

        @inline(__always)
        static func put(_ value: UInt64, to bytes: inout [UInt8]) {
            var value = value
            while value >= 0x80 {
                bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
                value &>>= 7
            }
            bytes.append(UInt8(truncatingIfNeeded: value))
        }
    }

    // Unchecked: touched on every value event, only by the pass that owns the collector.
    @exclusivity(unchecked) private var nodes: [Node] = []
    @exclusivity(unchecked) private var texts = ValueTextTable()
    /// Creation and naming events so far.
    @exclusivity(unchecked) private var nameEvents = 0
    /// The estimated bytes of the rows kept, and the most they may take so far.
    @exclusivity(unchecked) private var kept = 0
    @exclusivity(unchecked) private var allowance: Int
    private let budget: Int
    private let traceSize: UInt64

    /// A collector for a trace of `traceSize` bytes whose rows take at most about `budget`
    /// bytes (nil: ``budget(forTrace:)``).
    init(traceSize: UInt64, budget: Int? = nil) {
        self.traceSize = max(1, traceSize)
        self.budget = budget ?? Self.budget(forTrace: traceSize)
        allowance = self.budget / 16
    }

    /// The budget for a trace of `size` bytes: a 50th of it (2%), or 64 KiB for a small one.
    static func budget(forTrace size: UInt64) -> Int { Int(min(UInt64(Int.max), max(64 << 10, size / 50))) }

    /// The pass has read the trace up to byte `offset` (after each chunk).
    func read(upTo offset: UInt64) {
        let share = Double(budget) * Double(min(offset, traceSize)) / Double(traceSize)
        allowance = max(allowance, Int(share))
    }

    private func cover(_ node: Int32) {
        let needed = Int(node) + 1
        guard needed > nodes.count else { return }
        nodes.append(contentsOf: repeatElement(Node(), count: needed - nodes.count))
    }

    /// The value event numbered `ordinal` set the node at builder position `node` to `value`
    /// at `time`, the write rooted at action `root` (-1: none).
    @inline(__always)
    func took(_ node: Int32, value: String, root: Int32, ordinal: Int, at time: UInt64) {
        if Int(node) < nodes.count, nodes[Int(node)].dropped { return }
        record(node, value: value, root: root, ordinal: ordinal, at: time)
    }

    private func record(_ node: Int32, value: String, root: Int32, ordinal: Int, at time: UInt64) {
        cover(node)
        let position = Int(node)
        let (number, new) = texts.intern(value)
        // A new value's text counts to the node that first took it.
        let size = (new ? value.utf8.count + 1 : 0)
            + nodes[position].append(ordinal: ordinal, time: time, value: number, root: root)
        nodes[position].valued = true
        nodes[position].size += size
        kept += size
        while kept > allowance, let largest = nodes.indices.max(by: { nodes[$0].size < nodes[$1].size }),
              nodes[largest].size > 0 {
            kept -= nodes[largest].size
            nodes[largest].size = 0
            nodes[largest].rows = []
            nodes[largest].count = 0
            nodes[largest].dropped = true
        }
    }

    /// The node at builder position `node` was created or named; its display name is now `name`,
    /// after `ordinal` value events.
    func named(_ node: Int32, name: String, ordinal: Int) {
        cover(node)
        nameEvents += 1
        guard nodes[Int(node)].steps.last?.name != name else { return }
        nodes[Int(node)].steps.append(Step(ordinal: ordinal, event: nameEvents - 1, name: name))
    }

    /// The section of the pass: the nodes with value events, by id (`id` gives a builder
    /// position's); `valueEvents`, the pass's count of them.
    func valueRows(id: (Int32) -> UInt64, valueEvents: Int) -> IndexedValueRows {
        // The values the rows kept name, renumbered in order of first use.
        var renumbered = [Int32](repeating: -1, count: texts.texts.count)
        var table: [String] = []
        for node in nodes where !node.dropped {
            Self.forEachRow(node.rows) { _, _, value, _ in
                if renumbered[Int(value)] < 0 {
                    renumbered[Int(value)] = Int32(table.count)
                    table.append(texts.texts[Int(value)])
                }
            }
        }
        var fields = IndexFieldWriter()
        fields.put(valueEvents)
        fields.put(nameEvents)
        fields.put(strings: table)
        let listed = nodes.indices.filter { nodes[$0].valued }
        fields.put(listed.count)
        for position in listed {
            let node = nodes[position]
            fields.put(id(Int32(position)))
            fields.put(node.steps.count)
            var ordinal = 0, event = 0
            for step in node.steps {
                fields.put(step.ordinal - ordinal)
                fields.put(step.event - event)
                fields.put(step.name)
                ordinal = step.ordinal
                event = step.event
            }
            fields.put(!node.dropped)
            guard !node.dropped else { continue }
            var block = IndexFieldWriter()
            block.put(node.count)
            Self.forEachRow(node.rows) { ordinal, time, value, root in
                block.put(ordinal)
                block.put(time)
                block.put(Int(renumbered[Int(value)]))
                block.put(root)
            }
            fields.put(bytes: block.bytes)
        }
        return IndexedValueRows(bytes: fields.bytes)
    }

    /// Each row of `rows` as its four fields (value event step, time code, text number, root plus one).
    private static func forEachRow(_ rows: [UInt8], _ body: (UInt64, UInt64, UInt64, UInt64) -> Void) {
        rows.withUnsafeBufferPointer { bytes in
            var offset = 0
            func next() -> UInt64 {
                var value: UInt64 = 0, shift: UInt64 = 0
                while true {
                    let byte = bytes[offset]
                    offset += 1
                    value |= UInt64(byte & 0x7F) &<< shift
                    if byte < 0x80 { return value }
                    shift += 7
                }
            }
            while offset < bytes.count {
                let ordinal = next(), time = next(), value = next(), root = next()
                body(ordinal, time, value, root)
            }
        }
    }
}
