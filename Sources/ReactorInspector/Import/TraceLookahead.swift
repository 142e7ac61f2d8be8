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
///
/// A lookahead may cover only some of the value events (``first`` on: a window read from an
/// index's snapshot, ``TraceIndexSession``), or keep no previous values at all
/// (``read(path:keepingValues:)``, for a filter that shows no old → new): every write it
/// covers then reads as ordered, with no previous value.
public struct TraceLookahead: Sendable {
    /// The position (among the trace's value events in file order) of the first value event covered.
    let first: Int
    /// How many value events from ``first`` on are covered.
    let covered: Int
    /// Per covered value event, its previous value's text (an index into ``texts``), or -1 for
    /// none; empty when no previous values are kept.
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
        self.init(first: 0, covered: nodes.count, previous: previous, texts: texts, finalNames: finalNames,
                  events: events)
    }

    /// A lookahead of the value events from position `first` on, `covered` of them, with their
    /// previous values found beforehand (`previous`: empty for none kept).
    init(first: Int, covered: Int, previous: [Int32], texts: [String], finalNames: [UInt64: String], events: Int) {
        precondition(previous.isEmpty || previous.count == covered, "a previous value for each covered event")
        self.first = first
        self.covered = covered
        self.previous = previous
        self.texts = texts
        self.finalNames = finalNames
        self.events = events
    }

    /// Reads the value events and names of the trace at `path` (one pass; nothing else is kept).
    /// Without `keepingValues` (a view that never shows a write's previous value) only names are
    /// kept and value events counted: memory grows with nodes, not with value events.
    public static func read(path: String, keepingValues: Bool = true) throws(TraceFileError) -> TraceLookahead {
        var collector = Collector(keepingValues: keepingValues)
        _ = try TraceFile.forEachBatch(path: path) { collector.add($0) }
        return collector.lookahead()
    }

    /// Gathers a lookahead from the batches of a pass, in order (``read(path:keepingValues:)``,
    /// or a pass that does more at the same time).
    struct Collector {
        let keepingValues: Bool
        private var nodes: [UInt64] = [], timestamps: [UInt64] = [], values: [Int32] = []
        private var texts: [String] = [], index: [String: Int32] = [:], names: [UInt64: String] = [:]
        private var events = 0, valueEvents = 0

        init(keepingValues: Bool) {
            self.keepingValues = keepingValues
        }

        mutating func add(_ batch: borrowing TraceEventBatch) {
            events += batch.count
            for event in batch.events {
                switch event.record {
                case .value where !keepingValues:
                    valueEvents += 1
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

        /// The lookahead of the batches taken.
        func lookahead() -> TraceLookahead {
            guard keepingValues else {
                return TraceLookahead(first: 0, covered: valueEvents, previous: [], texts: [], finalNames: names,
                                      events: events)
            }
            return TraceLookahead(nodes: nodes, timestamps: timestamps, values: values, texts: texts,
                                  finalNames: names, events: events)
        }
    }

    /// The previous value (in time order) of the value event at `position` in file order:
    /// `.some(nil)` when it is the node's first, nil when `position` is beyond the events read.
    func previousValue(at position: Int) -> String?? {
        guard position >= first, position - first < covered else { return nil }
        guard !previous.isEmpty else { return .some(nil) }
        let text = previous[position - first]
        return .some(text < 0 ? nil : texts[Int(text)])
    }
}
