extension ProfileReport {
    /// The dependency graph the HTML report embeds: the `computations` hottest
    /// computations by total time and their neighbours, heat-coloured, as SVG
    /// rendered in process by Graphviz.
    public static func dependencyGraphSVG(model: TraceModel, computations: Int = 40) throws(GraphError) -> String {
        let options = GraphOptions(selection: .automatic, heat: .time, automaticLimit: computations, neighbourLimit: computations * 2)
        return try GraphRenderer.render(model: model, options: options, format: .svg).output
    }
}
