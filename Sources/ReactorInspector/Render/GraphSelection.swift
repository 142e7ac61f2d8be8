/// Which part of the dependency graph to draw.
public enum GraphSelection: Sendable, Equatable {
    /// Everything when the graph is small; otherwise the hottest
    /// ``GraphOptions/automaticLimit`` computations and up to
    /// ``GraphOptions/neighbourLimit`` of their neighbours.
    case automatic
    /// Every node (slow for thousands of nodes: layout is superlinear).
    case all
    /// The hottest `count` computations and their direct neighbours.
    case top(Int)
    /// The node named `name` and everything within `depth` edges of it.
    case focus(name: String, depth: Int)
    /// Every node, with the computations of each dependency layer drawn as
    /// one node, except the layers in `expanded`: a readable overview of a
    /// large graph (``DependencyGraph/layers(of:)`` says what a layer is).
    case layers(expanded: Set<Int>)
}
