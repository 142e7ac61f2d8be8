/// One node's values over time, each with the action that set it: the answer
/// of `history`. Its JSON form (an array of ``Entry``) is the contract of
/// `history --json`.
public struct ValueHistoryReport: Sendable, Equatable {
    /// One value the node took.
    public struct Entry: Sendable, Equatable, Encodable {
        /// When it was recorded, in trace nanoseconds.
        public let timeNanoseconds: UInt64
        /// The node (when several nodes share the name, they are told apart by id).
        public let node: UInt64
        /// The value's description.
        public let value: String
        /// The value it replaced; nil for the first one the trace holds.
        public let previous: String?
        /// The action at the root of the write (`TodoStore.setFilter(_:)`), nil when none.
        public let action: String?

        /// Encodes `action` and `previous` as null when absent (the contract keeps `action` always).
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(timeNanoseconds, forKey: .timeNanoseconds)
            try container.encode(node, forKey: .node)
            try container.encode(value, forKey: .value)
            try container.encode(previous, forKey: .previous)
            try container.encode(action, forKey: .action)
        }

        private enum CodingKeys: String, CodingKey {
            case timeNanoseconds, node, value, previous, action
        }
    }

    /// The name asked for.
    public let name: String
    /// The kind of the node(s) of that name.
    public let kind: String
    /// How many nodes have the name.
    public let instances: Int
    /// The values in time order.
    public let entries: [Entry]

    /// The history of the node(s) named `name` in a model built with
    /// ``TraceModelOptions/valueHistoryOf`` set to `name`. Throws when no node
    /// has that name or the trace holds no values at all.
    public init(model: TraceModel, name: String, path: String) throws(StateError) {
        let matching = model.nodes(named: name)
        guard let first = matching.first else {
            throw .unknownName(name, suggestions: Self.suggestions(for: name, in: model))
        }
        guard model.hasValues else { throw .noValues(path: path) }
        self.name = name
        kind = first.kind.label
        instances = matching.count
        entries = model.valueHistory.map {
            Entry(timeNanoseconds: $0.timestamp, node: $0.node, value: $0.value, previous: $0.previous,
                  action: $0.action)
        }
    }

    /// Names of any node kind resembling `name`.
    static func suggestions(for name: String, in model: TraceModel) -> [String] {
        let lowered = name.lowercased()
        var seen = Set<String>()
        return model.nodes.map(\.name).filter { candidate in
            let folded = candidate.lowercased()
            return (folded.contains(lowered) || lowered.contains(folded)) && !folded.isEmpty
                && seen.insert(candidate).inserted
        }.prefix(3).map { $0 }
    }

    /// The report as terminal text: values and names escaped.
    public func text(style: TextStyle = .plain) -> String {
        let out = "history of \(TerminalEscaping.escape(name)) (\(kind)"
            + (instances > 1 ? ", \(instances) nodes of that name" : "") + ")\n"
        if entries.isEmpty {
            return out + "  no value recorded for it\n"
        }
        // Lines are written as they are made (no table of cells): a busy node has
        // hundreds of thousands of values.
        func change(_ entry: Entry) -> String {
            let node = instances > 1 ? style.dim("#\(entry.node) ") : ""
            return node + (entry.previous.map { TerminalEscaping.escape($0) + " → " } ?? "") + TerminalEscaping.escape(entry.value)
        }
        var timeWidth = 0, changeWidth = 0
        for entry in entries {
            timeWidth = max(timeWidth, DurationText.formatTime(entry.timeNanoseconds).count)
            // Capped: one long value runs past the column on its own line, not every line.
            changeWidth = min(TextColumns.maximumWidth, max(changeWidth, TextColumns.visibleWidth(change(entry))))
        }
        var text = out
        for entry in entries {
            let time = DurationText.formatTime(entry.timeNanoseconds)
            let shown = change(entry)
            text += "  " + String(repeating: " ", count: timeWidth - time.count) + time + "  " + shown
                + String(repeating: " ", count: max(0, changeWidth - TextColumns.visibleWidth(shown))) + "  "
                + (entry.action.map { style.cyan(TerminalEscaping.escape($0)) } ?? style.dim("(no action)")) + "\n"
        }
        return text
    }
}
