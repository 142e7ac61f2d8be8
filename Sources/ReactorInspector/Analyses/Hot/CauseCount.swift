/// A cause and how many times it acted: a dependency's name, `parent`,
/// `explicit` or `stop` for invalidations, an action's name for root causes.
public struct CauseCount: Sendable, Equatable, Codable {
    /// The cause.
    public let cause: String
    /// How many times.
    public let count: Int

    /// Creates a count.
    public init(cause: String, count: Int) {
        self.cause = cause
        self.count = count
    }

    /// The `limit` largest counts of `counts`, largest first, ties by name.
    static func top(_ counts: [String: Int], limit: Int) -> [CauseCount] {
        counts.filter { $0.value > 0 }
            .sorted { ($0.value, $1.key) > ($1.value, $0.key) }
            .prefix(limit)
            .map { CauseCount(cause: $0.key, count: $0.value) }
    }
}
