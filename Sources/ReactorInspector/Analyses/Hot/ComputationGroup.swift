import ReactorTraceFormat

/// The instances of one computation, grouped by kind and name, with their
/// runs and invalidations added up. `hot`, `summary`, the graph and the CI
/// tools all speak of computations this way.
public struct ComputationGroup: Sendable {
    /// The shared name.
    public let name: String
    /// `computation` (autorun) or `computed`.
    public let kind: TraceNodeKind
    /// The instances' ids.
    public var ids: [UInt64]
    /// Their runs, added up.
    public var runs: RunStats
    /// Their invalidations, added up.
    public var invalidations: InvalidationCounts
    /// Invalidations per cause: dependency names, `parent`, `explicit`, `stop`.
    public var causes: [String: Int]
    /// Runs per root action (qualified name).
    public var actions: [String: Int]
    /// Where the first instance with a recorded site was created (`#fileID:#line`); nil when none was recorded.
    public var site: String?

    /// Groups the computations of `model`, in order of first appearance.
    public static func all(in model: TraceModel) -> [ComputationGroup] {
        var order: [GroupKey] = []
        var groups: [GroupKey: ComputationGroup] = [:]
        for node in model.nodes where node.isComputation {
            let key = GroupKey(kind: node.kind, name: node.name)
            if groups[key] == nil {
                order.append(key)
                groups[key] = ComputationGroup(name: node.name, kind: node.kind, ids: [], runs: RunStats(),
                                               invalidations: InvalidationCounts(), causes: [:], actions: [:])
            }
            groups[key]!.ids.append(node.id)
            if groups[key]!.site == nil { groups[key]!.site = node.site }
            groups[key]!.runs.merge(node.runs)
            groups[key]!.invalidations.merge(node.invalidations)
            let counts = node.invalidations
            if counts.byParent > 0 { groups[key]!.causes["parent", default: 0] += counts.byParent }
            if counts.explicit > 0 { groups[key]!.causes["explicit", default: 0] += counts.explicit }
            if counts.byStop > 0 { groups[key]!.causes["stop", default: 0] += counts.byStop }
            if counts.byRunaway > 0 { groups[key]!.causes["runaway", default: 0] += counts.byRunaway }
            if counts.byError > 0 { groups[key]!.causes["error", default: 0] += counts.byError }
        }
        var keyByID: [UInt64: GroupKey] = [:]
        for key in order { for id in groups[key]!.ids { keyByID[id] = key } }
        for edge in model.edges where edge.invalidations > 0 {
            guard let key = keyByID[edge.computation] else { continue }
            groups[key]!.causes[model.name(of: edge.dependency), default: 0] += edge.invalidations
        }
        for action in model.actions {
            for (id, count) in action.runsCausedByComputation {
                guard let key = keyByID[id] else { continue }
                groups[key]!.actions[action.qualifiedName, default: 0] += count
            }
        }
        return order.map { groups[$0]! }
    }

    /// The entry `hot` prints for this group.
    public func hotEntry(causeLimit: Int = 3) -> HotEntry {
        HotEntry(name: name, kind: kind.label, instances: ids.count, runs: runs.runs, reruns: runs.reruns,
                 totalNanoseconds: runs.totalNanoseconds, selfNanoseconds: runs.selfNanoseconds,
                 p50Nanoseconds: runs.p50Nanoseconds, p99Nanoseconds: runs.p99Nanoseconds,
                 maxNanoseconds: runs.maxNanoseconds, invalidations: invalidations.total,
                 topCauses: CauseCount.top(causes, limit: causeLimit),
                 topActions: CauseCount.top(actions, limit: causeLimit), site: site)
    }

    struct GroupKey: Hashable {
        var kind: TraceNodeKind
        var name: String
    }
}
