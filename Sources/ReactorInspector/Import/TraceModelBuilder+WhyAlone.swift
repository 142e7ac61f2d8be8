import ReactorTraceFormat

/// A builder reading chunks alone from their light points for `why` (``TraceIndexSession``):
/// it explains the computations given by id and keeps each of their runs and stops with its
/// chain by node ids, or says that the chunks read did not make that chain
/// (``CauseTracker/unknownBefore`` at its root).
extension TraceModelBuilder {
    /// One step of a chain's shape, nodes by id: what a pass groups runs by
    /// (``WhyCollector/StepKey``), the same from any builder.
    enum AloneShapeStep: Hashable {
        case action(Int32)
        case changed(UInt64)
        case invalidated(UInt64, UInt8)
        case ran(UInt64, Bool)
        case unknown
        case elided
    }

    /// A run or stop of an explained computation, as a pass records it.
    struct AloneRecord: Equatable {
        var timestamp: UInt64
        var node: UInt64
        var event: WhyEntry.Event
        var stopCause: InvalidationCause?
        /// Its chain's shape.
        var shape: [AloneShapeStep]
        /// Its chain's steps, named and kinded by `describe`.
        var chain: [WhyStep]
    }

    /// Makes a builder (of options explaining one target) explain the computations `ids` from
    /// their first creation or naming event on, as a pass does for the nodes whose name matched
    /// the target there, and keep each of their runs and stops. Those of `ids` in `named`
    /// had that event in a chunk before the ones read: explained from the start.
    func explainAlone(_ ids: Set<UInt64>, named: some Sequence<UInt64>) {
        guard !collectors.isEmpty else { return }
        collectors[0].every = []
        aloneTargets = ids
        for id in named {
            // Positioned first: positioning a new node grows the column.
            let node = Int(position(of: id, inferring: .computation))
            states[node].collector = 0
        }
    }

    /// How many runs and stops of the explained computations were recorded so far.
    var aloneRecordCount: Int { collectors.first?.every?.count ?? 0 }

    /// The runs and stops recorded from the `start`-th on, with their chains (nodes named and
    /// kinded by `describe`, given a node's id); nil when the chain of one of them began
    /// before the chunks read, or names a node `describe` does not know.
    func aloneRecords(from start: Int,
                      describe: (UInt64) -> (name: String, kind: TraceNodeKind)?) -> [AloneRecord]? {
        guard let every = collectors.first?.every else { return nil }
        let unknown = causes.unknownBefore
        var records: [AloneRecord] = []
        records.reserveCapacity(every.count - start)
        for recorded in every[start...] {
            guard unknown == nil || recorded.link.root !== unknown else { return nil }
            var shape: [AloneShapeStep] = [], chain: [WhyStep] = []
            for step in recorded.link.stepsFromRoot {
                switch step {
                case let .action(call):
                    shape.append(.action(call.action))
                    chain.append(.action(name: actionName(call.action), arguments: call.arguments, site: call.site))
                case let .changed(node, values):
                    let id = nodes[Int(node)].id
                    guard let described = describe(id) else { return nil }
                    shape.append(.changed(id))
                    chain.append(.changed(name: described.name, kind: described.kind, values: values))
                case let .invalidated(node, cause):
                    let id = nodes[Int(node)].id
                    guard let described = describe(id) else { return nil }
                    shape.append(.invalidated(id, cause.rawValue))
                    chain.append(.invalidated(name: described.name, kind: described.kind, cause: cause))
                case let .ran(node, firstRun):
                    let id = nodes[Int(node)].id
                    guard let described = describe(id) else { return nil }
                    shape.append(.ran(id, firstRun))
                    chain.append(.ran(name: described.name, kind: described.kind, firstRun: firstRun))
                case .unknown:
                    shape.append(.unknown)
                    chain.append(.unknown)
                case let .elided(count):
                    shape.append(.elided)
                    chain.append(.elided(count: count))
                }
            }
            records.append(AloneRecord(timestamp: recorded.timestamp, node: recorded.node, event: recorded.event,
                                       stopCause: recorded.stopCause, shape: shape, chain: chain))
        }
        return records
    }
}
