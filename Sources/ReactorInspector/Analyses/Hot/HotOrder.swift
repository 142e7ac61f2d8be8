/// How `hot` ranks computations.
public enum HotOrder: String, Sendable, CaseIterable, Codable {
    /// By runs after the first.
    case reruns
    /// By total run time.
    case time
}
