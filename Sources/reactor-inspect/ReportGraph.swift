import Foundation
import ReactorInspector
import ReactorTrace

/// The dependency graph for the HTML report, rendered in process by the inspector's Graphviz renderer.
enum ReportGraph {
    /// The graph of the trace at `tracePath` as SVG; nil (with a warning) when Graphviz cannot draw it.
    static func svg(tracePath: String) -> String? {
        let model = TraceModel(events: CLIOutput.openTrace(tracePath))
        do {
            return try ProfileReport.dependencyGraphSVG(model: model)
        } catch {
            CLIOutput.warn("the report has no dependency graph: \(error)")
            return nil
        }
    }
}
