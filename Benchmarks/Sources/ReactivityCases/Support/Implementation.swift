/// The four ways each case is written, measured side by side.
public enum Implementation: String, CaseIterable, Sendable {
    /// ReactorCore: `@Reactive` sources, `reactor.computed` values, `reactor.autorun` effects.
    case reactorCore = "ReactorCore"
    /// Swift's Observation: `@Observable` sources, effects that re-arm
    /// `withObservationTracking` in `onChange`, drained synchronously after each write.
    case observation = "Observation"
    /// OpenCombine: `CurrentValueSubject` sources and nodes, `map`, combine-latest and `sink`.
    case openCombine = "OpenCombine"
    /// The same arithmetic written by hand, with no reactive machinery.
    case baseline = "Baseline"
    /// The pipeline an OpenCombine user would write: `head.map { $0 + 1 }.map { … }`,
    /// erased, into one `sink`; no memoized nodes, no equality cut-off. It has no
    /// joins, so only the cases without them (deep and broad) have this form.
    case openCombineMapChain = "OpenCombineMapChain"

    /// The implementations every case has.
    public static let standard: [Implementation] = [.reactorCore, .observation, .openCombine, .baseline]
}
