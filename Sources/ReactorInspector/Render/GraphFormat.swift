/// What `graph` writes.
public enum GraphFormat: String, Sendable, CaseIterable {
    /// A picture, laid out and rendered by Graphviz in process.
    case svg
    /// Graphviz's DOT language, laid out (with positions), for other tools.
    case dot
}
