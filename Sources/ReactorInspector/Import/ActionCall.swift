/// One call of a store action, as the root of the causal chains it starts
/// (``CauseLink/Step/action(_:)``): which call it was, and the reruns charged
/// to it, so that views can name the exact call behind a rerun. The importer
/// makes one per call while it tracks causes; it lives as long as a chain
/// holds it, so memory follows the live chains, not the calls.
final class ActionCall {
    /// The action's position in the importer's table (``ImportedEvent/action``).
    let action: Int32
    /// Which call of the action it was: 1 for the first.
    let ordinal: Int
    /// Its arguments, summarised.
    let arguments: String
    /// Its call site (`#fileID:#line`), when the trace recorded one.
    var site: String?
    /// Reruns whose chain starts at this call (first runs left out).
    private(set) var reruns = 0
    /// The computations it reran, as node positions in order, at most ``recordedReruns``.
    private(set) var rerunNodes: [Int32] = []
    /// How many of its reruns are kept by computation.
    static let recordedReruns = 8

    init(action: Int32, ordinal: Int, arguments: String) {
        self.action = action
        self.ordinal = ordinal
        self.arguments = arguments
    }

    /// Charges a rerun of the computation at `node` to this call.
    func chargeRerun(of node: Int32) {
        reruns += 1
        if rerunNodes.count < Self.recordedReruns { rerunNodes.append(node) }
    }
}
