/// A dependency edge seen at some point of the trace: `computation` read
/// `dependency` during a run.
public struct TraceEdge: Sendable, Equatable {
    /// The reader.
    public let computation: UInt64
    /// What it read.
    public let dependency: UInt64
    /// How many runs recorded the edge (each run re-collects its dependencies).
    public var depends: Int
    /// How many invalidations of `computation` flowed along this edge.
    public var invalidations: Int
    /// When the edge was first recorded.
    public var firstSeen: UInt64
    /// When the edge was last recorded or used.
    public var lastSeen: UInt64

    /// Creates an edge record.
    public init(computation: UInt64, dependency: UInt64, depends: Int = 0, invalidations: Int = 0,
                firstSeen: UInt64 = 0, lastSeen: UInt64 = 0) {
        self.computation = computation
        self.dependency = dependency
        self.depends = depends
        self.invalidations = invalidations
        self.firstSeen = firstSeen
        self.lastSeen = lastSeen
    }

    /// The edge's endpoints.
    public var key: TraceEdgeKey { TraceEdgeKey(computation: computation, dependency: dependency) }
}

/// The endpoints of a dependency edge.
public struct TraceEdgeKey: Sendable, Hashable, Comparable {
    /// The reader.
    public let computation: UInt64
    /// What it read.
    public let dependency: UInt64

    /// Creates a key.
    public init(computation: UInt64, dependency: UInt64) {
        self.computation = computation
        self.dependency = dependency
    }

    /// Orders by computation, then dependency.
    public static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.computation, lhs.dependency) < (rhs.computation, rhs.dependency)
    }
}
