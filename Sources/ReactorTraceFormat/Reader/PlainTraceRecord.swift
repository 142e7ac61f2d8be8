/// ``TraceRecord`` as plain data: the same cases and fields, with every string
/// replaced by a ``TraceStringID`` into the batch's string table, so that
/// copying a record is copying bytes (no reference counting, no value witnesses).
public enum PlainTraceRecord: Sendable, Hashable, BitwiseCopyable {
    /// A node came into being (`created`, timed); `parent` is the enclosing computation or owning store, or 0.
    case nodeCreated(id: UInt64, kind: TraceNodeKind, name: TraceStringID, parent: UInt64)
    /// A node learned its name (`named`); `owner` or 0.
    case nodeNamed(id: UInt64, name: TraceStringID, owner: UInt64)
    /// A computation stopped or a node was released (`stopped`, timed).
    case nodeStopped(id: UInt64)
    /// A computation gained a dependency during a run.
    case depend(computation: UInt64, dependency: UInt64)
    /// A dependency changed (a property or subject write).
    case changed(dependency: UInt64)
    /// A computation was invalidated; `source` is the dependency or parent for those causes, else 0.
    case invalidated(computation: UInt64, cause: InvalidationCause, source: UInt64)
    /// A computation began to run (timed); `firstRun` on its first run.
    case rerunBegan(computation: UInt64, firstRun: Bool)
    /// The computation's run ended (timed).
    case rerunEnded(computation: UInt64)
    /// A store action began (timed), with a summary of its arguments.
    case actionBegan(store: UInt64, name: TraceStringID, arguments: TraceStringID)
    /// The innermost action of `store` ended (timed).
    case actionEnded(store: UInt64)
    /// A flush of invalidated computations began (timed).
    case flushBegan
    /// The flush ended (timed).
    case flushEnded
    /// An issue reported through `Reactor.issueHandler` (timed); `node` or 0.
    case issue(kind: TraceIssueKind, node: UInt64, message: TraceStringID)
    /// `node` now holds the value `value` (only in traces recorded with values on).
    case value(node: UInt64, value: TraceStringID)

    /// The kind of the record, for filtering and counting.
    public var kind: TraceEventKind {
        switch self {
        case .nodeCreated: .nodeCreated
        case .nodeNamed: .nodeNamed
        case .nodeStopped: .nodeStopped
        case .depend: .depend
        case .changed: .changed
        case .invalidated: .invalidated
        case .rerunBegan: .rerunBegan
        case .rerunEnded: .rerunEnded
        case .actionBegan: .actionBegan
        case .actionEnded: .actionEnded
        case .flushBegan: .flushBegan
        case .flushEnded: .flushEnded
        case .issue: .issue
        case .value: .value
        }
    }

    /// The plain form of `record`: its strings are appended to `strings`, and
    /// the record refers to them there (the inverse of ``resolved(in:)``).
    public init(_ record: TraceRecord, strings: inout [String]) {
        func intern(_ string: String) -> TraceStringID {
            strings.append(string)
            return TraceStringID(index: UInt32(strings.count - 1))
        }
        switch record {
        case let .nodeCreated(id, kind, name, parent):
            self = .nodeCreated(id: id, kind: kind, name: intern(name), parent: parent)
        case let .nodeNamed(id, name, owner): self = .nodeNamed(id: id, name: intern(name), owner: owner)
        case let .nodeStopped(id): self = .nodeStopped(id: id)
        case let .depend(computation, dependency): self = .depend(computation: computation, dependency: dependency)
        case let .changed(dependency): self = .changed(dependency: dependency)
        case let .invalidated(computation, cause, source):
            self = .invalidated(computation: computation, cause: cause, source: source)
        case let .rerunBegan(computation, firstRun): self = .rerunBegan(computation: computation, firstRun: firstRun)
        case let .rerunEnded(computation): self = .rerunEnded(computation: computation)
        case let .actionBegan(store, name, arguments):
            self = .actionBegan(store: store, name: intern(name), arguments: intern(arguments))
        case let .actionEnded(store): self = .actionEnded(store: store)
        case .flushBegan: self = .flushBegan
        case .flushEnded: self = .flushEnded
        case let .issue(kind, node, message): self = .issue(kind: kind, node: node, message: intern(message))
        case let .value(node, value): self = .value(node: node, value: intern(value))
        }
    }

    /// The record with its strings looked up in `strings` (the thread's table).
    @inlinable
    public func resolved(in strings: [String]) -> TraceRecord {
        switch self {
        case let .nodeCreated(id, kind, name, parent):
            .nodeCreated(id: id, kind: kind, name: strings[Int(name.index)], parent: parent)
        case let .nodeNamed(id, name, owner): .nodeNamed(id: id, name: strings[Int(name.index)], owner: owner)
        case let .nodeStopped(id): .nodeStopped(id: id)
        case let .depend(computation, dependency): .depend(computation: computation, dependency: dependency)
        case let .changed(dependency): .changed(dependency: dependency)
        case let .invalidated(computation, cause, source):
            .invalidated(computation: computation, cause: cause, source: source)
        case let .rerunBegan(computation, firstRun): .rerunBegan(computation: computation, firstRun: firstRun)
        case let .rerunEnded(computation): .rerunEnded(computation: computation)
        case let .actionBegan(store, name, arguments):
            .actionBegan(store: store, name: strings[Int(name.index)], arguments: strings[Int(arguments.index)])
        case let .actionEnded(store): .actionEnded(store: store)
        case .flushBegan: .flushBegan
        case .flushEnded: .flushEnded
        case let .issue(kind, node, message): .issue(kind: kind, node: node, message: strings[Int(message.index)])
        case let .value(node, value): .value(node: node, value: strings[Int(value.index)])
        }
    }
}
