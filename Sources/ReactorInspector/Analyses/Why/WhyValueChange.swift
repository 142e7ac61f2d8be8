/// The values a change step of a causal chain went between, when the trace
/// recorded them: `[] → ["Buy milk"]`.
public struct WhyValueChange: Sendable, Equatable {
    /// The value before, nil when the trace holds none (the node's first recorded value).
    public let previous: String?
    /// The value after.
    public let value: String

    /// Creates a change.
    public init(previous: String?, value: String) {
        self.previous = previous
        self.value = value
    }

    /// `old → new`, or `= new` without an old value.
    public var description: String {
        previous.map { "\($0) → \(value)" } ?? "= \(value)"
    }
}
