/// One run of a store action while the profile streams: it is charged with
/// every rerun whose causal chain starts at it, even reruns that happen after
/// the action returned (an asynchronous flush).
final class ActionInvocation {
    let aggregate: ActionAggregate
    let arguments: String
    var reruns = 0
    /// The computations it reran, in order, at most ``maximumRecordedReruns`` (for the budget's "why").
    private(set) var rerunComputations: [UInt64] = []
    static let maximumRecordedReruns = 8

    init(aggregate: ActionAggregate, arguments: String) {
        self.aggregate = aggregate
        self.arguments = arguments
    }

    /// Charges one rerun to this invocation and keeps the action's worst invocation current.
    func chargeRerun(of computation: UInt64) {
        reruns += 1
        if rerunComputations.count < Self.maximumRecordedReruns { rerunComputations.append(computation) }
        aggregate.rerunsCaused += 1
        if reruns > aggregate.maxRerunsPerInvocation {
            aggregate.maxRerunsPerInvocation = reruns
            aggregate.worstInvocation = self
        }
    }
}

/// Running totals for every invocation of one action name.
final class ActionAggregate {
    let store: UInt64
    let name: String
    var invocations = 0
    var rerunsCaused = 0
    var maxRerunsPerInvocation = 0
    /// The invocation that caused the most reruns (kept alive, one per action name).
    var worstInvocation: ActionInvocation?
    var totalNanoseconds: UInt64 = 0
    var maxNanoseconds: UInt64 = 0

    init(store: UInt64, name: String) {
        self.store = store
        self.name = name
    }
}
