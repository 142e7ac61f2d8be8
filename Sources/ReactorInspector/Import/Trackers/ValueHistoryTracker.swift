/// The importer's value-history tracker: every value of the nodes asked for
/// (``TraceModelOptions/valueHistoryOf``), in file order, values interned, with
/// the action at the root of the write that set each.
struct ValueHistoryTracker {
    /// One entry: positions, not strings, until the end.
    struct Entry {
        var node: Int32
        var timestamp: UInt64
        var value: Int32
        var root: Int32
    }

    private var entries: [Entry] = []
    private var values: [String] = []
    private var valueIndex: [String: Int32] = [:]

    mutating func record(_ node: Int32, value: String, root: Int32, at time: UInt64) {
        let interned: Int32
        if let known = valueIndex[value] {
            interned = known
        } else {
            interned = Int32(values.count)
            values.append(value)
            valueIndex[value] = interned
        }
        entries.append(Entry(node: node, timestamp: time, value: interned, root: root))
    }

    /// The history in time order (stable: one thread's entries keep their
    /// order), each with the value it replaced; `nodeID` and `actionName`
    /// resolve positions.
    func finished(nodeID: (Int32) -> UInt64, actionName: (Int32) -> String) -> [TraceValueChange] {
        var ordered = entries.enumerated().map { ($0.offset, $0.element) }
        ordered.sort { ($0.1.timestamp, $0.0) < ($1.1.timestamp, $1.0) }
        var previous: [Int32: Int32] = [:]
        return ordered.map { _, entry in
            let before = previous[entry.node].map { values[Int($0)] }
            previous[entry.node] = entry.value
            return TraceValueChange(node: nodeID(entry.node), timestamp: entry.timestamp, value: values[Int(entry.value)],
                                    previous: before, action: entry.root >= 0 ? actionName(entry.root) : nil)
        }
    }
}
