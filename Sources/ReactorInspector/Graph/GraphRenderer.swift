import CGraphviz
import Synchronization

/// Renders DOT to SVG (or laid-out DOT) in process with Graphviz's gvc
/// library: `agmemread`, `gvLayout(…, "dot")`, `gvRenderData`. It never runs
/// the `dot` program.
///
/// Graphviz's C API keeps global state and is not thread-safe, so every render
/// in the process goes through one lock.
public enum GraphRenderer {
    /// Lays out `dot` with the `dot` engine and renders it as `format`.
    public static func render(dot: String, format: GraphFormat) throws(GraphError) -> String {
        let result: Result<String, GraphError> = lock.withLock { context in
            if context.pointer == nil {
                // Errors are returned to the caller; Graphviz's warnings would only clutter stderr.
                _ = agseterr(AGERR)
                context.pointer = gvContext()
            }
            guard let gvc = context.pointer else { return .failure(.layoutFailed) }
            guard let graph = dot.withCString({ agmemread($0) }) else { return .failure(.invalidDOT) }
            defer { agclose(graph) }
            guard gvLayout(gvc, graph, "dot") == 0 else { return .failure(.layoutFailed) }
            defer { gvFreeLayout(gvc, graph) }
            var data: UnsafeMutablePointer<CChar>?
            var length: UInt32 = 0
            guard gvRenderData(gvc, graph, format.rawValue, &data, &length) == 0, let data else {
                return .failure(.renderFailed(format: format.rawValue))
            }
            defer { gvFreeRenderData(data) }
            let bytes = UnsafeRawBufferPointer(start: data, count: Int(length))
            return .success(String(decoding: bytes, as: UTF8.self))
        }
        return try result.get()
    }

    /// Selects, writes and renders the graph of `model` in one call.
    public static func render(model: TraceModel, options: GraphOptions = GraphOptions(), format: GraphFormat = .svg,
                              title: String = "") throws(GraphError) -> (output: String, graph: DependencyGraph) {
        let graph = try DependencyGraph(model: model, options: options)
        let dot = DOTWriter(graph: graph, title: title).dot()
        return (try render(dot: dot, format: format), graph)
    }

    /// The process-wide Graphviz context, created on first use and kept: the
    /// lock guards it and every call into the library.
    private struct Context: ~Copyable {
        var pointer: OpaquePointer?
    }

    private static let lock = Mutex(Context())
}
