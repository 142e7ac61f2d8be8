import ReactorTraceFormat

/// One node of a trace: a computation, computed, dependency, property,
/// subject, store… with what the trace says about it.
public struct TraceNode: Sendable, Identifiable {
    /// The node's process-unique id in the trace.
    public let id: UInt64
    /// What the node is. Nodes the trace mentions without creating are
    /// inferred (`computation` for what runs, `dependency` for what is read).
    public var kind: TraceNodeKind
    /// The name given at creation or learned later (`nodeNamed`); may be empty.
    public var givenName: String
    /// The owning store or object node (a store's `@Reactive` state), or 0.
    public var owner: UInt64
    /// The enclosing computation of a nested autorun (or a subscription's store), or 0.
    public var parent: UInt64
    /// Nodes created with this node as their parent, in creation order.
    public var children: [UInt64]
    /// When the node was created, if the trace holds it.
    public var createdAt: UInt64?
    /// When the node was stopped or released, if it was.
    public var stoppedAt: UInt64?
    /// How many times it changed (as a dependency: property writes, `changed()`,
    /// a computed's new value).
    public var changes: Int
    /// Its runs, for computations and computeds.
    public var runs: RunStats
    /// Its invalidations, by cause.
    public var invalidations: InvalidationCounts
    /// Where it was created in the source (`Module/File.swift:42`), when the
    /// trace records sites; nil otherwise.
    public var site: String?
    /// The description of the last value the trace recorded for it, when the
    /// model tracks values (``TraceModelOptions/tracksValues``); nil when none was.
    public var value: String?
    /// When ``value`` was recorded.
    public var valueTimestamp: UInt64?

    /// Creates a node record.
    public init(id: UInt64, kind: TraceNodeKind, givenName: String, owner: UInt64 = 0, parent: UInt64 = 0,
                createdAt: UInt64? = nil) {
        self.id = id
        self.kind = kind
        self.givenName = givenName
        self.owner = owner
        self.parent = parent
        self.children = []
        self.createdAt = createdAt
        self.stoppedAt = nil
        self.changes = 0
        self.runs = RunStats()
        self.invalidations = InvalidationCounts()
        self.value = nil
        self.valueTimestamp = nil
    }

    /// The name to show: the given name, or ``unnamed(_:createdAs:)``.
    public var name: String {
        givenName.isEmpty ? Self.unnamed(id, createdAs: createdAt == nil ? nil : kind) : givenName
    }

    /// The one name every view gives a node the trace does not name: its kind
    /// and id (`autorun#12`) when the trace created it, `#12` when the trace
    /// only refers to it (created before the recording began: its kind is not
    /// in the trace).
    public static func unnamed(_ id: UInt64, createdAs kind: TraceNodeKind?) -> String {
        guard let kind else { return "#\(id)" }
        return "\(kind.label)#\(id)"
    }

    /// True for nodes that run: autoruns, computeds and signal stages
    /// (operators and bindings, which run once per value they handle).
    public var isComputation: Bool { kind.runs }

    /// True if the node existed at `timestamp` (created by then, not yet stopped).
    public func isAlive(at timestamp: UInt64) -> Bool {
        if let createdAt, createdAt > timestamp { return false }
        if let stoppedAt, stoppedAt <= timestamp { return false }
        return true
    }
}
