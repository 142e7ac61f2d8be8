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

    /// An entry with its node's id, its value and its root action's name resolved.
    struct Resolved {
        var node: UInt64
        var timestamp: UInt64
        var value: String
        var action: String?
    }

    /// Whether an entry's root action is not known (``TraceModelBuilder/unknownRoot``: a builder
    /// reading an index's light points met a value whose cause lies in a chunk it did not read).
    var hasUnknownRoots: Bool { hasUnknownRoots(from: 0) }

    /// Whether an entry from the `start`-th on has an unknown root action.
    func hasUnknownRoots(from start: Int) -> Bool { entries[start...].contains { $0.root < -1 } }

    /// How many entries there are.
    var count: Int { entries.count }

    /// Drops the entries from the `count`-th on (values stay interned).
    mutating func truncate(to count: Int) { entries.removeSubrange(count...) }

    /// The entries in file order; `nodeID` and `actionName` resolve positions.
    func resolved(nodeID: (Int32) -> UInt64, actionName: (Int32) -> String) -> [Resolved] {
        entries.map { entry in
            Resolved(node: nodeID(entry.node), timestamp: entry.timestamp, value: values[Int(entry.value)],
                     action: entry.root >= 0 ? actionName(entry.root) : nil)
        }
    }

    /// The history in time order (stable: one thread's entries keep their
    /// order), each with the value it replaced; `nodeID` and `actionName`
    /// resolve positions.
    func finished(nodeID: (Int32) -> UInt64, actionName: (Int32) -> String) -> [TraceValueChange] {
        Self.ordered(resolved(nodeID: nodeID, actionName: actionName))
    }

    /// Entries in file order as the history: in time order (stable), each with the value it replaced.
    static func ordered(_ entries: [Resolved]) -> [TraceValueChange] {
        var ordered = entries.enumerated().map { ($0.offset, $0.element) }
        ordered.sort { ($0.1.timestamp, $0.0) < ($1.1.timestamp, $1.0) }
        var previous: [UInt64: String] = [:]
        return ordered.map { _, entry in
            let before = previous[entry.node]
            previous[entry.node] = entry.value
            return TraceValueChange(node: entry.node, timestamp: entry.timestamp, value: entry.value,
                                    previous: before, action: entry.action)
        }
    }
}
