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
}
