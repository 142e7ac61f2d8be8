/// The graph as it stood at one moment: live nodes and the edges held then
/// (a rerun clears and re-collects a computation's edges).
public struct TraceSnapshot: Sendable, Equatable {
    /// The moment, in trace nanoseconds.
    public let timestamp: UInt64
    /// Nodes created by then and not yet stopped.
    public let liveNodes: Set<UInt64>
    /// The dependency edges held at that moment.
    public let edges: Set<TraceEdgeKey>

    /// Creates a snapshot.
    public init(timestamp: UInt64, liveNodes: Set<UInt64>, edges: Set<TraceEdgeKey>) {
        self.timestamp = timestamp
        self.liveNodes = liveNodes
        self.edges = edges
    }
}
