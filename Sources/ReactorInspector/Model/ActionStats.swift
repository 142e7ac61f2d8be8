/// A store action (by store and name) and the work it caused.
public struct ActionStats: Sendable, Equatable {
    /// The store's node id.
    public let store: UInt64
    /// The store's name.
    public var storeName: String
    /// The action's name, e.g. `addTodo(_:)`.
    public let name: String
    /// How many times it ran.
    public var count: Int = 0
    /// Time spent inside it (its body; reruns usually follow it).
    public var totalNanoseconds: UInt64 = 0
    /// The distribution of its invocations' durations (bounded memory).
    public var durations = DurationHistogram()
    /// Runs of computations whose causal chain starts at this action.
    public var runsCaused: Int = 0
    /// Of ``runsCaused``, the reruns (first runs left out): the report's "Reruns caused".
    public var rerunsCaused: Int = 0
    /// The arguments of its first call, summarised.
    public var firstArguments: String
    /// Runs caused, per computation id.
    public var runsCausedByComputation: [UInt64: Int] = [:]

    /// Creates an empty record.
    public init(store: UInt64, storeName: String, name: String, firstArguments: String) {
        self.store = store
        self.storeName = storeName
        self.name = name
        self.firstArguments = firstArguments
    }

    /// `Store.action`, e.g. `TodoStore.addTodo(_:)`.
    public var qualifiedName: String { storeName.isEmpty ? name : "\(storeName).\(name)" }
}
