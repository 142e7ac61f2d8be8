import ReactorTraceFormat

/// What `why` prints for every computation of the trace, kept in the index by
/// the first `why` (one pass that explains them all) so that `why` of any
/// computation afterwards reads nothing of the trace (docs/INSPECT.md, "The index").
///
/// Chains are kept by shape in one table shared by all computations: each
/// shape is the shape before its last step plus that step (names resolved), so
/// the table grows with the distinct causal paths of the trace, not with its
/// events or with computations times chain length. Per target (each
/// computation's name and `#id`; targets whose explanations are the same share
/// one), the counts, the first ``listed`` runs with the arguments and values
/// their chains carry, and per shape how many runs followed it.
///
/// Only the target asked for is decoded, with the shapes' table.
struct AllExplanations: Sendable, Equatable {
    /// How many runs each explanation lists one by one: `why`'s default `--limit`.
    /// A longer list is a pass (``KeptExplanations`` keeps it).
    static let listed = 20

    /// The section's bytes (``TraceIndex`` encoding, ``AllExplanations/encode(_:)``).
    let bytes: [UInt8]

    /// The explanation `why target --limit limit` prints for the trace whose plain model is
    /// `model` (issues not attached yet), as a pass explaining `target` makes it; nil when the
    /// section cannot say (a target it left out, or more runs asked for one by one than it lists).
    func report(for target: String, limit: Int, model: TraceModel) throws(TraceIndexError) -> WhyReport? {
        let matching = WhyReport.computations(matching: target, in: model.nodes)
        guard !matching.isEmpty else { return WhyReport(target: target) }
        guard let report = try Self.decode(bytes, target: target) else { return nil }
        // Runs past the ones listed are counted, not known: a longer list needs a pass.
        guard limit <= Self.listed || report.omittedEntries == 0 else { return nil }
        var answer = report.limited(to: limit)
        answer.describe(matching)
        return answer
    }

    /// Targets kept (tests).
    func targets() throws(TraceIndexError) -> [String] {
        try Self.directory(bytes).targets
    }
}

extension TraceModelBuilder {
    /// What the pass's ``ExplanationsCollector`` collected, with the names and kinds known now (no
    /// target when it met more shapes than it keeps); nil when this builder does not explain every computation.
    func allExplanations() -> AllExplanations? {
        guard let collector = everything else { return nil }
        let table = nodes.table.array
        return AllExplanations(collector: collector, computations: table.filter(\.isComputation),
                               node: { (table[Int($0)].name, table[Int($0)].kind) }, actionName: actionName)
    }
}

extension WhyPattern {
    /// Patterns as an explanation lists them: most frequent first, then by chain.
    static func ordered(_ patterns: [WhyPattern]) -> [WhyPattern] {
        patterns.sorted { ($0.count, $1.chain.chainDescription) > ($1.count, $0.chain.chainDescription) }
    }
}
