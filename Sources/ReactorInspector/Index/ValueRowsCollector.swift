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
    /// One value event, strings as positions in ``values``.
    struct Row {
        /// The value event's position among the pass's value events (file order).
        var ordinal: Int
        var time: UInt64
        var value: Int32
        /// The action at the root of the write (-1: none), a position in the builder's action table.
        var root: Int32
    }

    /// A display name a node took at a creation or naming event: how many value events and
    /// creation or naming events came before it.
    struct Step {
        var ordinal: Int
        var event: Int
        var name: String
    }

    /// Per node position of the builder: rows, whether any value event came, whether dropped.
    private var rows: [[Row]] = []
    private var valued: [Bool] = []
    private var dropped: [Bool] = []
    /// Per node position, an estimate of its rows' encoded bytes.
    private var sizes: [Int] = []
    private var steps: [[Step]] = []
    /// Creation and naming events so far.
    private var nameEvents = 0
    private var values: [String] = []
    private var valueIndex: [String: Int32] = [:]
    /// The estimated bytes of the rows kept, and the most they may take so far.
    private var kept = 0
    private var allowance: Int
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
        guard needed > rows.count else { return }
        let more = needed - rows.count
        rows.append(contentsOf: repeatElement([], count: more))
        valued.append(contentsOf: repeatElement(false, count: more))
        dropped.append(contentsOf: repeatElement(false, count: more))
        sizes.append(contentsOf: repeatElement(0, count: more))
        steps.append(contentsOf: repeatElement([], count: more))
    }

    /// The value event numbered `ordinal` set the node at builder position `node` to `value`
    /// at `time`, the write rooted at action `root` (-1: none).
    @inline(__always)
    func took(_ node: Int32, value: String, root: Int32, ordinal: Int, at time: UInt64) {
        if Int(node) < dropped.count, dropped[Int(node)] { return }
        record(node, value: value, root: root, ordinal: ordinal, at: time)
    }

    private func record(_ node: Int32, value: String, root: Int32, ordinal: Int, at time: UInt64) {
        cover(node)
        let position = Int(node)
        valued[position] = true
        let interned: Int32
        // A new value's text counts to the node that first took it.
        var size = 0
        if let known = valueIndex[value] {
            interned = known
        } else {
            interned = Int32(values.count)
            values.append(value)
            valueIndex[value] = interned
            size += value.utf8.count + 1
        }
        let previous = rows[position].last
        size += Varint.size(UInt64(ordinal - (previous?.ordinal ?? 0)))
            + Varint.size(Varint.zigzagDelta(time, from: previous?.time ?? 0))
            + Varint.size(UInt64(interned)) + Varint.size(UInt64(root + 1))
        rows[position].append(Row(ordinal: ordinal, time: time, value: interned, root: root))
        sizes[position] += size
        kept += size
        while kept > allowance, let largest = sizes.indices.max(by: { sizes[$0] < sizes[$1] }), sizes[largest] > 0 {
            kept -= sizes[largest]
            sizes[largest] = 0
            rows[largest] = []
            dropped[largest] = true
        }
    }

    /// The node at builder position `node` was created or named; its display name is now `name`,
    /// after `ordinal` value events.
    func named(_ node: Int32, name: String, ordinal: Int) {
        cover(node)
        nameEvents += 1
        guard steps[Int(node)].last?.name != name else { return }
        steps[Int(node)].append(Step(ordinal: ordinal, event: nameEvents - 1, name: name))
    }

    /// The section of the pass: the nodes with value events, by id (`id` gives a builder
    /// position's); `valueEvents`, the pass's count of them.
    func valueRows(id: (Int32) -> UInt64, valueEvents: Int) -> IndexedValueRows {
        // The values the rows kept name, renumbered in order of first use.
        var renumbered = [Int32](repeating: -1, count: values.count)
        var table: [String] = []
        for position in rows.indices where !dropped[position] {
            for row in rows[position] where renumbered[Int(row.value)] < 0 {
                renumbered[Int(row.value)] = Int32(table.count)
                table.append(values[Int(row.value)])
            }
        }
        var fields = IndexFieldWriter()
        fields.put(valueEvents)
        fields.put(nameEvents)
        fields.put(strings: table)
        let listed = rows.indices.filter { valued[$0] }
        fields.put(listed.count)
        for position in listed {
            fields.put(id(Int32(position)))
            fields.put(steps[position].count)
            var ordinal = 0, event = 0
            for step in steps[position] {
                fields.put(step.ordinal - ordinal)
                fields.put(step.event - event)
                fields.put(step.name)
                ordinal = step.ordinal
                event = step.event
            }
            fields.put(!dropped[position])
            guard !dropped[position] else { continue }
            var block = IndexFieldWriter()
            block.put(rows[position].count)
            var previous = Row(ordinal: 0, time: 0, value: 0, root: 0)
            for row in rows[position] {
                block.put(row.ordinal - previous.ordinal)
                block.put(Varint.zigzagDelta(row.time, from: previous.time))
                block.put(Int(renumbered[Int(row.value)]))
                block.put(Int(row.root + 1))
                previous = row
            }
            fields.put(bytes: block.bytes)
        }
        return IndexedValueRows(bytes: fields.bytes)
    }
}
