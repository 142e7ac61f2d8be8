/// One event read back from a trace log.
public struct TraceEvent: Sendable, Hashable {
    /// Nanoseconds since the trace began (monotonic clock). Events the
    /// recorder does not time (depend, changed, invalidate) carry the time of
    /// the latest timed event on their thread.
    public var timestamp: UInt64
    /// The recording thread's index in this trace (0, 1, 2… in order of first event).
    public var thread: UInt32
    /// What happened.
    public var record: TraceRecord

    /// Creates an event.
    public init(timestamp: UInt64, thread: UInt32, record: TraceRecord) {
        self.timestamp = timestamp
        self.thread = thread
        self.record = record
    }
}

/// What a trace event says happened; one case per `ReactorTracer` method.
public enum TraceRecord: Sendable, Hashable {
    /// A node came into being (`created`, timed); `parent` is the enclosing computation or owning store, or 0.
    case nodeCreated(id: UInt64, kind: TraceNodeKind, name: String, parent: UInt64)
    /// A node learned its name (`named`), e.g. an `@Reactive` property `Owner.property`; `owner` or 0.
    case nodeNamed(id: UInt64, name: String, owner: UInt64)
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
    /// The computation's run ended (timed): its duration is the time since its `rerunBegan`.
    case rerunEnded(computation: UInt64)
    /// A store action began (timed), with a summary of its arguments.
    case actionBegan(store: UInt64, name: String, arguments: String)
    /// The innermost action of `store` ended (timed).
    case actionEnded(store: UInt64)
    /// A flush of invalidated computations began (timed).
    case flushBegan
    /// The flush ended (timed).
    case flushEnded
    /// An issue reported through `Reactor.issueHandler` (timed); `node` or 0.
    case issue(kind: TraceIssueKind, node: UInt64, message: String)
    /// `node` now holds `value` (untimed; only in traces recorded with values
    /// on): its first value, or the one a write, send or recomputation gave it,
    /// just before that write's `changed`. Already bounded; `‹redacted›` for secrets.
    case value(node: UInt64, value: String)

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
}

/// The kinds of trace records; the raw value is the kind's tag in the log
/// (see docs/TRACE_FORMAT.md) for tags 1–13. `value` is extension tag 64
/// (``TraceFormat/valueTag``) in the log; its raw value 14 only numbers it here.
public enum TraceEventKind: UInt8, Sendable, CaseIterable, Codable {
    case nodeCreated = 1
    case nodeNamed = 2
    case nodeStopped = 3
    case depend = 4
    case changed = 5
    case invalidated = 6
    case rerunBegan = 7
    case rerunEnded = 8
    case actionBegan = 9
    case actionEnded = 10
    case flushBegan = 11
    case flushEnded = 12
    case issue = 13
    case value = 14

    /// The name used on the command line and in reports (`depend`, `rerun-begin`…).
    public var name: String {
        switch self {
        case .nodeCreated: "created"
        case .nodeNamed: "named"
        case .nodeStopped: "stopped"
        case .depend: "depend"
        case .changed: "changed"
        case .invalidated: "invalidate"
        case .rerunBegan: "rerun-begin"
        case .rerunEnded: "rerun-end"
        case .actionBegan: "action-begin"
        case .actionEnded: "action-end"
        case .flushBegan: "flush-begin"
        case .flushEnded: "flush-end"
        case .issue: "issue"
        case .value: "value"
        }
    }
}
