/// A benchmark case: its name, how many source writes one run makes, and how
/// to build it in each implementation.
public struct CaseDefinition: Sendable {
    /// The case's name in js-reactivity-benchmark (cellx with its layer count).
    public let name: String
    /// Source writes in one ``ReactivityCase/run()`` (to turn per-run counts into per-write ones).
    public let writesPerRun: Int
    /// The implementations measured. OpenCombine is left out of cellx: without
    /// glitch-free propagation each write reaches the last layer along every
    /// path, about 1.6^layers sink calls (150,040 effect runs for one run at 20
    /// layers), so 1,000 layers would never finish.
    public let implementations: [Implementation]
    /// Builds the case's graph in one implementation.
    public let make: @Sendable (Implementation) -> any ReactivityCase

    init(name: String, writesPerRun: Int, implementations: [Implementation] = Implementation.standard,
         make: @escaping @Sendable (Implementation) -> any ReactivityCase) {
        self.name = name
        self.writesPerRun = writesPerRun
        self.implementations = implementations
        self.make = make
    }

    /// Every case, in the order the suite runs them.
    public static let all: [CaseDefinition] = [
        CaseDefinition(name: "deepPropagation", writesPerRun: DeepPropagation.writes + 1,
                       implementations: Implementation.standard + [.openCombineMapChain], make: DeepPropagation.make),
        CaseDefinition(name: "broadPropagation", writesPerRun: BroadPropagation.writes + 1,
                       implementations: Implementation.standard + [.openCombineMapChain], make: BroadPropagation.make),
        CaseDefinition(name: "diamond", writesPerRun: Diamond.writes + 1, make: Diamond.make),
        CaseDefinition(name: "triangle", writesPerRun: Triangle.writes + 1, make: Triangle.make),
        CaseDefinition(name: "mux", writesPerRun: 2 * Mux.writes, make: Mux.make),
        CaseDefinition(name: "repeatedObservers", writesPerRun: RepeatedObservers.writes + 1, make: RepeatedObservers.make),
        CaseDefinition(name: "unstable", writesPerRun: Unstable.writes + 1, make: Unstable.make),
        CaseDefinition(name: "avoidablePropagation", writesPerRun: AvoidablePropagation.writes + 1,
                       make: AvoidablePropagation.make),
        CaseDefinition(name: "cellx1000", writesPerRun: 4, implementations: [.reactorCore, .observation, .baseline],
                       make: { Cellx.make($0, layers: 1000) }),
        CaseDefinition(name: "cellx2500", writesPerRun: 4, implementations: [.reactorCore, .observation, .baseline],
                       make: { Cellx.make($0, layers: 2500) }),
        CaseDefinition(name: "cellx5000", writesPerRun: 4, implementations: [.reactorCore, .observation, .baseline],
                       make: { Cellx.make($0, layers: 5000) }),
    ]
}
