import ReactorTraceFormat

/// Every live node of a trace at one moment: each node's value then (the
/// last one recorded up to it), and which computations were alive and what
/// each depended on. Its JSON form (an array of ``Entry``) is the contract of
/// `state --json`.
public struct StateReport: Sendable, Equatable {
    /// One live node.
    public struct Entry: Sendable, Equatable, Encodable {
        /// The node's id.
        public let id: UInt64
        /// Its name.
        public let name: String
        /// Its kind label (`property`, `computed`, `autorun`…).
        public let kind: String
        /// Its value then, nil when the trace recorded none up to that moment.
        public let value: String?
        /// When that value was recorded (nil with no value).
        public let valueTimeNanoseconds: UInt64?
        /// For a computation: the names of what it depended on then; nil for other nodes.
        public let dependencies: [String]?
        /// For a computation: invalidated and not yet rerun then (its
        /// dependencies are the ones its next run will collect anew).
        public var pendingRerun: Bool = false

        /// Encodes `value` as null when absent (the contract), other absent fields not at all.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(name, forKey: .name)
            try container.encode(kind, forKey: .kind)
            try container.encode(value, forKey: .value)
            try container.encodeIfPresent(valueTimeNanoseconds, forKey: .valueTimeNanoseconds)
            try container.encodeIfPresent(dependencies, forKey: .dependencies)
            if pendingRerun { try container.encode(true, forKey: .pendingRerun) }
        }

        private enum CodingKeys: String, CodingKey {
            case id, name, kind, value, valueTimeNanoseconds, dependencies, pendingRerun
        }

        /// True for nodes that run (they have dependencies, not values of their own, except computeds).
        var isComputation: Bool { dependencies != nil }
    }

    /// The moment.
    public let moment: ResolvedMoment
    /// The name of the action `action:N` named (`TodoStore.setFilter(_:)`), if it did.
    public let actionName: String?
    /// The live nodes (those matching the filter), in order of first mention.
    public let entries: [Entry]

    /// Builds the report from a model built up to `moment` (``TraceFile/model(path:at:options:progress:)``),
    /// keeping the nodes whose name contains `filter` (all when nil).
    public init(model: TraceModel, moment: ResolvedMoment, filter: String? = nil) {
        self.moment = moment
        if let action = moment.action {
            let store = model.node(action.store)?.name ?? ""
            actionName = store.isEmpty ? action.name : "\(store).\(action.name)"
        } else {
            actionName = nil
        }
        var dependencies: [UInt64: [UInt64]] = [:]
        for key in model.finalEdges.sorted() { dependencies[key.computation, default: []].append(key.dependency) }
        entries = model.nodes.compactMap { node in
            guard node.isAlive(at: moment.timestamp) else { return nil }
            if let filter, !filter.isEmpty, !node.name.contains(filter) { return nil }
            var entry = Entry(id: node.id, name: node.name, kind: node.kind.label, value: node.value,
                              valueTimeNanoseconds: node.value == nil ? nil : node.valueTimestamp,
                              dependencies: node.isComputation ? (dependencies[node.id] ?? []).map(model.name(of:)) : nil)
            entry.pendingRerun = node.isComputation && model.pendingReruns.contains(node.id)
            return entry
        }
    }

    /// The nodes that hold values (properties, subjects, computeds, dependencies), alive then.
    public var valueEntries: [Entry] {
        entries.filter { entry in
            guard let kind = TraceNodeKind(label: entry.kind) else { return entry.value != nil }
            return Self.holdsValues(kind) || entry.value != nil
        }
    }

    /// The computations alive then.
    public var computationEntries: [Entry] { entries.filter(\.isComputation) }

    static func holdsValues(_ kind: TraceNodeKind) -> Bool {
        switch kind {
        case .computed, .dependency, .reactiveValue, .reactiveProperty, .subject: true
        default: false
        }
    }
}
