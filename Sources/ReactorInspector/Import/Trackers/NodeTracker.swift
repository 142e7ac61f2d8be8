import ReactorTraceFormat

/// The importer's node table: every node the trace created or mentioned, by
/// position (``ImportedEvent/node``), with its kind, name, owner, parent and
/// children, creation, stop and call site. A node the trace mentions before
/// (or without) creating it is added with the kind its use implies; its
/// creation, if it comes, sets the real kind. Its name follows the one rule
/// (``TraceNode/name``).
///
/// Internal storage of one builder: the table lives in a ``BuilderColumn``,
/// updated in place; the owner calls ``deallocate()`` once.
struct NodeTracker {
    private var index = NodeIndex()
    private var records = BuilderColumn<TraceNode>()

    /// How many nodes there are (positions are `0..<count`).
    var count: Int { records.count }

    /// The nodes, by position.
    var table: BuilderColumn<TraceNode> { records }

    /// The position of node `id`, if the trace mentioned it.
    @inline(__always)
    func find(_ id: UInt64) -> Int32? { index.find(id) }

    /// The node at `position`, read or updated in place.
    subscript(position: Int) -> TraceNode {
        unsafeAddress { UnsafePointer(records.address(of: position)) }
        nonmutating unsafeMutableAddress { records.address(of: position) }
    }

    /// Adds node `id`, not known yet, with the kind its use implies; returns its position.
    mutating func add(_ id: UInt64, inferring kind: TraceNodeKind) -> Int32 {
        let position = Int32(records.count)
        index.insert(id, at: position)
        records.append(TraceNode(id: id, kind: kind, givenName: ""))
        return position
    }

    /// The kind a node's parent is taken to have until the trace creates it: a
    /// subscription's parent is a store, any other node's a computation.
    static func parentKind(of kind: TraceNodeKind) -> TraceNodeKind {
        kind == .subscription ? .store : .computation
    }

    /// The node at `node` was created as `kind` named `name` (empty: unnamed,
    /// which keeps a name it was already given) inside the node `parent` at
    /// position `parentNode` (id 0: none).
    mutating func created(_ node: Int32, kind: TraceNodeKind, name: String, parent: UInt64, parentNode: Int32,
                          at time: UInt64) {
        self[Int(node)].kind = kind
        if !name.isEmpty || self[Int(node)].givenName.isEmpty { self[Int(node)].givenName = name }
        self[Int(node)].createdAt = time
        guard parent != 0 else { return }
        self[Int(node)].parent = parent
        self[Int(parentNode)].children.append(self[Int(node)].id)
    }

    /// The node at `node` was named `name`, owned by the node `owner` (0: none).
    mutating func named(_ node: Int32, name: String, owner: UInt64) {
        self[Int(node)].givenName = name
        if owner != 0 { self[Int(node)].owner = owner }
    }

    /// The node at `node` was stopped at `time`.
    mutating func stopped(_ node: Int32, at time: UInt64) {
        self[Int(node)].stoppedAt = time
    }

    /// Where the node at `node` was made in the source.
    mutating func sited(_ node: Int32, site: String) {
        self[Int(node)].site = site
    }

    /// The display name of node `id` now, if the trace mentioned it.
    func name(of id: UInt64) -> String? { find(id).map { self[Int($0)].name } }

    /// Frees the table; the tracker must not be used after.
    func deallocate() { records.deallocate() }
}
