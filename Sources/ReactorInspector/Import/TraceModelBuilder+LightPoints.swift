import ReactorTraceFormat

/// A builder that reads single chunks of a trace from the index's light points
/// (``IndexedLightPoints``; docs/INSPECT.md, "The index"): before each chunk, its
/// thread's open runs and actions as the pass had them there, and nothing else.
///
/// What a chunk's events do with that state is what a pass does, except for what
/// the chunks not read decided: the root action of a node's pending invalidation,
/// last change, run and value (``NodeState``). Those start, and after a chunk
/// not read become again, ``unknownRoot``, which every rule carries on
/// (an invalidation through a node of unknown change root has an unknown root,
/// and so on); a value recorded with an unknown root says the chunk alone
/// cannot answer (``ValueHistoryTracker/hasUnknownRoots``), never a wrong root. Likewise,
/// while it tracks causes, every chain made before the chunks read is one unknown root
/// (``CauseTracker/unknownBefore``), which the chains continuing it keep.
extension TraceModelBuilder {
    /// A root action not known to a builder reading light points.
    static let unknownRoot: Int32 = -2

    /// A node's state as a builder reading light points first meets it.
    static var unknownState: NodeState {
        var state = NodeState()
        state.pendingRoot = unknownRoot
        state.changeRoot = unknownRoot
        state.runRoot = unknownRoot
        state.valueRoot = unknownRoot
        return state
    }

    /// A run or action open on a thread, as a light point keeps it: node ids, and actions
    /// by their position in the whole trace's action table.
    struct LightFrame: Equatable {
        var isAction: Bool
        var node: UInt64
        /// The action's position (-1: a run).
        var action: Int32
        /// The root action's position (-1: none).
        var root: Int32
        var begin: UInt64
        var firstRun: Bool
    }

    /// Makes a new builder (of options that ``resumesHistory(_:)``) one that reads light
    /// points, with `actions` (the whole trace's, in order) as its action table, so that an
    /// action's position is the pass's. False when they cannot be a trace's actions.
    func startReadingLightPoints(actions table: [ActionStats]) -> Bool {
        reset()
        readsLightPoints = true
        // Chains the chunks not read made: one unknown root (``CauseTracker/unknownBefore``).
        if tracksCauses { causes = CauseTracker(unknownBefore: CauseLink.make(.unknown, after: nil)) }
        for action in table { _ = position(of: action.store, inferring: .store) }
        guard let restored = ActionTracker(restoring: table, storePosition: { nodes.find($0) }) else { return false }
        actions = restored
        return true
    }

    /// The runs and actions open on thread `index` are `frames`; false when one names an
    /// action the builder's table does not hold.
    func restoreThread(_ index: UInt32, frames: [LightFrame]) -> Bool {
        let count = Int32(actions.stats.count)
        guard frames.allSatisfy({ $0.action < count && $0.root < count && $0.isAction == ($0.action >= 0) }) else {
            return false
        }
        let slot = slot(ofThread: index)
        slices.replace(slot, with: frames.map { frame in
            SliceTracker.Frame(isAction: frame.isAction,
                               node: position(of: frame.node, inferring: frame.isAction ? .store : .computation),
                               action: frame.action, root: frame.root, cause: causes.unknownBefore, begin: frame.begin,
                               firstRun: frame.firstRun)
        })
        return true
    }

    /// The chunks not read may have changed the roots of nodes `ids`: unknown from now on.
    func forgetRoots(of ids: some Sequence<UInt64>) {
        for id in ids {
            guard let node = nodes.find(id) else { continue }
            let inHistory = states[Int(node)].inHistory
            states[Int(node)] = Self.unknownState
            states[Int(node)].inHistory = inHistory
        }
    }

    /// Node `id` is a computed (or not) from here on: a creation event in a chunk not read.
    func setComputed(_ id: UInt64, _ computed: Bool) {
        let node = position(of: id, inferring: .reactiveValue)
        if computed {
            nodes[Int(node)].kind = .computed
        } else if nodes[Int(node)].kind == .computed {
            nodes[Int(node)].kind = .reactiveValue
        }
    }

    /// The value history recorded so far, in file order, with action names from `actionName`
    /// (by position); nil when a value's root action is not known.
    func lightHistory(actionName: (Int32) -> String) -> [ValueHistoryTracker.Resolved]? {
        guard !history.hasUnknownRoots else { return nil }
        return history.resolved(nodeID: { nodes[Int($0)].id }, actionName: actionName)
    }

    /// How many values the history recorded so far.
    var historyCount: Int { history.count }

    /// Whether a value recorded from the `start`-th on has an unknown root action.
    func hasUnknownRoots(from start: Int) -> Bool { history.hasUnknownRoots(from: start) }

    /// Drops the values recorded from the `count`-th on.
    func truncateHistory(to count: Int) { history.truncate(to: count) }

    /// The value history recorded so far, in file order, with action names from `actionName`.
    func recordedHistory(actionName: (Int32) -> String) -> [ValueHistoryTracker.Resolved] {
        history.resolved(nodeID: { nodes[Int($0)].id }, actionName: actionName)
    }
}

extension TraceModelBuilder {
    /// Node `id` is followed by the value history from here on (a builder reading light points).
    func follow(_ id: UInt64) {
        let node = position(of: id, inferring: .reactiveValue)
        states[Int(node)].inHistory = true
    }

    /// The runs and actions open on thread `index` now, as a light point keeps them.
    func lightFrames(ofThread index: UInt32) -> [LightFrame] {
        guard let slot = threadSlots[index] else { return [] }
        return slices.open(slot).map { frame in
            LightFrame(isAction: frame.isAction, node: nodes[Int(frame.node)].id, action: frame.action,
                       root: frame.root, begin: frame.begin, firstRun: frame.firstRun)
        }
    }
}
