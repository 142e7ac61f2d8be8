/// The importer's edge table, with Tracker's semantics: a `depend` adds (or
/// renews) the edge from a computation to a dependency; invalidating,
/// stopping or rerunning a computation drops all its edges at once (the rerun
/// re-collects what it reads). Every edge a computation ever had stays in the
/// table with its counts and when it was first and last seen; whether it is
/// *held* now is what the graph at a moment shows.
///
/// Dropping is one increment: each computation has a generation, and an edge
/// is held while the generation it was last read in is the current one.
///
/// Internal storage of one builder: the tables live in ``BuilderColumn``s,
/// updated in place; the owner calls ``deallocate()`` once.
struct EdgeTracker {
    private var records = BuilderColumn<TraceEdge>()
    /// Per edge, its computation and the generation it was last read in.
    private var holds = BuilderColumn<Hold>()
    /// Per node position, the edges it has as a computation.
    private var owners = BuilderColumn<Owner>()

    struct Hold {
        var computation: Int32
        /// The generation of the computation's edges in which it was last read (0: never).
        var generation: UInt64
    }

    /// A computation's edges.
    struct Owner {
        /// The generation held now.
        var generation: UInt64 = 1
        /// Every edge this computation ever had: dependency position -> edge position.
        var slots: [Slot] = []
        /// The same, by dependency, once there are many.
        var lookup: [Int32: Int32]?
    }

    struct Slot {
        var dependency: Int32
        var edge: Int32
    }

    /// Makes room for the node just added at the next position.
    mutating func addNode() { owners.append(Owner()) }

    /// Every edge ever seen, in order of first sight.
    var table: BuilderColumn<TraceEdge> { records }

    /// The computation at `computation` (id `computationID`) read the
    /// dependency at `dependency` (id `dependencyID`): it holds that edge now.
    mutating func depended(_ computation: Int32, on dependency: Int32, ids: (UInt64, UInt64), at time: UInt64) {
        let edge = Int(edge(from: computation, to: dependency, ids: ids, at: time))
        records[edge].depends += 1
        records[edge].lastSeen = time
        holds[edge].generation = owners[Int(computation)].generation
    }

    /// The dependency at `dependency` invalidated the computation at
    /// `computation`: counted on their edge (made if the trace never showed the read).
    mutating func invalidated(_ computation: Int32, through dependency: Int32, ids: (UInt64, UInt64),
                              at time: UInt64) {
        let edge = Int(edge(from: computation, to: dependency, ids: ids, at: time))
        records[edge].invalidations += 1
        records[edge].lastSeen = time
    }

    /// Tracker: an invalidated, stopped or rerun computation drops all its edges.
    @inline(__always)
    func dropAll(of node: Int32) {
        owners[Int(node)].generation &+= 1
    }

    /// True if the edge at `position` is held by its computation now.
    func isHeld(_ position: Int) -> Bool {
        let hold = holds[position]
        return hold.generation == owners[Int(hold.computation)].generation
    }

    /// The edges held now.
    var held: Set<TraceEdgeKey> {
        var held = Set<TraceEdgeKey>()
        for position in records.indices where isHeld(position) { held.insert(records[position].key) }
        return held
    }

    private mutating func edge(from computation: Int32, to dependency: Int32, ids: (UInt64, UInt64),
                               at time: UInt64) -> Int32 {
        // Read in place: copying the owner would retain its arrays on every event.
        if owners[Int(computation)].lookup != nil {
            if let edge = owners[Int(computation)].lookup![dependency] { return edge }
        } else {
            let count = owners[Int(computation)].slots.count
            var slot = 0
            while slot < count {
                if owners[Int(computation)].slots[slot].dependency == dependency {
                    return owners[Int(computation)].slots[slot].edge
                }
                slot += 1
            }
        }
        let edge = Int32(records.count)
        records.append(TraceEdge(computation: ids.0, dependency: ids.1, firstSeen: time, lastSeen: time))
        holds.append(Hold(computation: computation, generation: 0))
        owners[Int(computation)].slots.append(Slot(dependency: dependency, edge: edge))
        if owners[Int(computation)].lookup != nil {
            owners[Int(computation)].lookup![dependency] = edge
        } else if owners[Int(computation)].slots.count > 16 {
            var lookup: [Int32: Int32] = [:]
            for slot in owners[Int(computation)].slots { lookup[slot.dependency] = slot.edge }
            owners[Int(computation)].lookup = lookup
        }
        return edge
    }

    /// Adds `record` as it stood in a checkpoint (``TraceModelBuilder/restore(from:)``): the
    /// edge from the computation at `computation` to the dependency at `dependency`, held now
    /// or not. Only whether an edge is held matters, not the generation it was read in.
    mutating func restore(_ record: TraceEdge, computation: Int32, dependency: Int32, held: Bool) {
        let position = Int(edge(from: computation, to: dependency, ids: (record.computation, record.dependency),
                                at: record.firstSeen))
        records[position] = record
        holds[position].generation = held ? owners[Int(computation)].generation : 0
    }

    /// Frees the tables; the tracker must not be used after.
    func deallocate() {
        records.deallocate()
        holds.deallocate()
        owners.deallocate()
    }
}
