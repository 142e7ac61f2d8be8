/// One action as it ran, for the live views' recent actions: which store, its
/// arguments, when and how long, and the dependencies it changed.
public struct LiveAction: Sendable, Equatable {
    /// Its N for `action:N`: 1-based, outermost actions in the order they
    /// began as read (an action inside another has the outer one's number; 0: not known).
    public let ordinal: Int
    /// The store's node id.
    public let store: UInt64
    /// The action's name.
    public let name: String
    /// Its arguments as recorded.
    public let arguments: String
    /// When it began (trace nanoseconds).
    public let beganAt: UInt64
    /// How long it took.
    public let durationNanoseconds: UInt64
    /// The dependencies it changed, in order of first change, without repeats
    /// (at most ``LiveTrace/changedLimit``).
    public let changed: [UInt64]
    /// How many `changed` events it made in all.
    public let changeCount: Int
    /// The value each of ``changed`` held when the action ended, where the
    /// trace records values (nil for the others).
    public let values: [String?]

    /// An action record.
    public init(ordinal: Int = 0, store: UInt64, name: String, arguments: String, beganAt: UInt64, durationNanoseconds: UInt64,
                changed: [UInt64], changeCount: Int, values: [String?] = []) {
        self.ordinal = ordinal
        self.store = store
        self.name = name
        self.arguments = arguments
        self.beganAt = beganAt
        self.durationNanoseconds = durationNanoseconds
        self.changed = changed
        self.changeCount = changeCount
        self.values = values.count == changed.count ? values : Array(repeating: nil, count: changed.count)
    }
}
