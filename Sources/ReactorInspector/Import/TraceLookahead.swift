import ReactorTraceFormat

/// What a one-pass reader cannot know when it meets an event, found in a pass of its own
/// (``read(path:)``) for views that stream a trace (`replay`):
///
/// - each value event's previous value in **time order** (docs/TRACE_FORMAT.md, 7a: by
///   timestamp, ties in file order): another thread's earlier write may come later in the
///   file. Indexed by the value event's position among the trace's value events in file
///   order, which is how the importer meets them;
/// - each node's **final name** (docs/METRICS.md, "name"): an `@Reactive` is named on first
///   access, after events that already mention it.
public struct TraceLookahead: Sendable {
    /// Per value event, its previous value's text (an index into ``texts``), or -1 for none.
    let previous: [Int32]
    /// The distinct value texts.
    let texts: [String]
    /// The last name the trace gives each node it names.
    let finalNames: [UInt64: String]
    /// The events the pass read (decoded, as a batch holds them): a trace still being
    /// recorded may hold more by the time another pass reads it, and those later events
    /// are not in the lookahead, so a view that needs them all stops at this many.
    public let events: Int

    /// The lookahead of the value events and names a pass collected.
    init(nodes: [UInt64], timestamps: [UInt64], values: [Int32], texts: [String], finalNames: [UInt64: String],
         events: Int) {
        let order = nodes.indices.sorted { (nodes[$0], timestamps[$0], $0) < (nodes[$1], timestamps[$1], $1) }
        var previous = [Int32](repeating: -1, count: nodes.count)
        for (rank, index) in order.enumerated() where rank > 0 {
            let before = order[rank - 1]
            if nodes[before] == nodes[index] { previous[index] = values[before] }
        }
        self.previous = previous
        self.texts = texts
        self.finalNames = finalNames
        self.events = events
    }

    /// Reads the value events and names of the trace at `path` (one pass; nothing else is kept).
    public static func read(path: String) throws(TraceFileError) -> TraceLookahead {
        var nodes: [UInt64] = [], timestamps: [UInt64] = [], values: [Int32] = []
        var texts: [String] = [], index: [String: Int32] = [:], names: [UInt64: String] = [:]
        var events = 0
        _ = try TraceFile.forEachBatch(path: path) { batch in
            events += batch.count
            for event in batch.events {
                switch event.record {
                case let .value(node, value):
                    let text = batch.string(value)
                    let interned: Int32
                    if let known = index[text] {
                        interned = known
                    } else {
                        interned = Int32(clamping: texts.count)
                        texts.append(text)
                        index[text] = interned
                    }
                    nodes.append(node)
                    timestamps.append(event.timestamp)
                    values.append(interned)
                case let .nodeNamed(id, name, _):
                    names[id] = batch.string(name)
                case let .nodeCreated(id, _, name, _):
                    let text = batch.string(name)
                    if !text.isEmpty, names[id] == nil { names[id] = text }
                default:
                    break
                }
            }
        }
        return TraceLookahead(nodes: nodes, timestamps: timestamps, values: values, texts: texts, finalNames: names,
                              events: events)
    }

    /// The previous value (in time order) of the value event at `position` in file order:
    /// `.some(nil)` when it is the node's first, nil when `position` is beyond the events read.
    func previousValue(at position: Int) -> String?? {
        guard position >= 0, position < previous.count else { return nil }
        let text = previous[position]
        return .some(text < 0 ? nil : texts[Int(text)])
    }
}
