import ReactorTraceFormat

/// The importer's cause tracker, used while it tracks causes
/// (``TraceModelOptions/tracksCauses``: `why`, the profile): the causal chain
/// (``CauseLink``) of every node's latest change, pending invalidation and
/// latest run, and of the run or action that ended last. It follows the rules
/// of docs/METRICS.md, "Causes": the first invalidation since a run schedules
/// the next rerun; a rerun with none recorded has an unknown cause; a chain's
/// root action call is charged with the reruns the chain causes.
///
/// Nodes are the importer's positions; the chains of a node are made room for
/// the first time it is given one.
struct CauseTracker {
    /// A node's chains.
    struct NodeChains {
        /// Of the invalidation that scheduled its next rerun (nil: none since its last run).
        var pending: CauseLink?
        /// Of its latest change.
        var change: CauseLink?
        /// Of its latest run that ended.
        var run: CauseLink?
    }

    private var chains: [NodeChains] = []
    /// The chain of the run or action that ended last: what the visitor of its end event reads.
    private(set) var lastEnded: CauseLink?
    /// For a builder reading chunks alone (light points): the one root standing for every chain
    /// the chunks not read made. A node's chains start as it, so a chain that continues one has
    /// it as its root (a root is never cut), and says it cannot be told from the chunks read.
    private(set) var unknownBefore: CauseLink?

    /// A tracker whose nodes' chains start as `unknownBefore` (nil: as none).
    init(unknownBefore: CauseLink? = nil) {
        self.unknownBefore = unknownBefore
    }

    /// The chain of the latest change of the node at `node`.
    func change(of node: Int32) -> CauseLink? { Int(node) < chains.count ? chains[Int(node)].change : unknownBefore }

    /// The chain of the invalidation pending on the node at `node`.
    func pending(of node: Int32) -> CauseLink? { Int(node) < chains.count ? chains[Int(node)].pending : unknownBefore }

    /// The chain of the latest run of the node at `node` that ended.
    func run(of node: Int32) -> CauseLink? { Int(node) < chains.count ? chains[Int(node)].run : unknownBefore }

    private mutating func makeRoom(for node: Int32) {
        if Int(node) >= chains.count {
            let unknown = NodeChains(pending: unknownBefore, change: unknownBefore, run: unknownBefore)
            chains.append(contentsOf: repeatElement(unknownBefore == nil ? NodeChains() : unknown,
                                                   count: Int(node) + 1 - chains.count))
        }
    }

    /// The node at `node` changed (to `values`, when known), caused by `previous`.
    mutating func changed(_ node: Int32, values: WhyValueChange?, after previous: CauseLink?) {
        makeRoom(for: node)
        chains[Int(node)].change = CauseLink.make(.changed(node: node, values: values), after: previous)
    }

    /// The computation at `node` was invalidated for `cause`, caused by
    /// `previous`; `schedulesRerun` when no invalidation is pending on it (the
    /// first since its last run), whose chain its next rerun continues.
    mutating func invalidated(_ node: Int32, cause: InvalidationCause, after previous: CauseLink?,
                              schedulesRerun: Bool) -> CauseLink {
        let link = CauseLink.make(.invalidated(node: node, cause: cause), after: previous)
        if schedulesRerun {
            makeRoom(for: node)
            chains[Int(node)].pending = link
        }
        return link
    }

    /// The computation at `node` began a run. A first run continues
    /// `enclosing` (what was running or called on its thread); a rerun
    /// continues its pending invalidation, or starts at ``CauseLink/Step/unknown``
    /// when none was recorded, and is charged to the call at its chain's root.
    mutating func ran(_ node: Int32, firstRun: Bool, enclosing: CauseLink?) -> CauseLink {
        makeRoom(for: node)
        let previous = firstRun ? enclosing : chains[Int(node)].pending ?? CauseLink.make(.unknown, after: nil)
        chains[Int(node)].pending = nil
        let link = CauseLink.make(.ran(node: node, firstRun: firstRun), after: previous)
        if !firstRun { link.rootCall?.chargeRerun(of: node) }
        return link
    }

    /// A run of the computation at `node` whose chain is `cause` ended.
    mutating func ended(run node: Int32, cause: CauseLink?) {
        makeRoom(for: node)
        chains[Int(node)].run = cause
        lastEnded = cause
    }

    /// An action call whose chain is `cause` ended.
    mutating func ended(action cause: CauseLink?) {
        lastEnded = cause
    }

    /// A call of the action at `action`, its `ordinal`-th, with `arguments`:
    /// it continues `enclosing` (the run or action it was called in), or
    /// starts a chain of its own.
    func called(_ action: Int32, ordinal: Int, arguments: String, enclosing: CauseLink?) -> CauseLink {
        CauseLink.make(.action(ActionCall(action: action, ordinal: ordinal, arguments: arguments)), after: enclosing)
    }
}
