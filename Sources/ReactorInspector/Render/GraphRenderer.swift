import CGraphviz
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Renders DOT to SVG (or laid-out DOT) in process with Graphviz's gvc
/// library: `agmemread`, `gvLayout(…, "dot")` (or `"sfdp"`, see ``GraphLayout``), `gvRenderData`. It never runs
/// the `dot` program.
///
/// Graphviz's C API keeps global state and is not thread-safe, so every render
/// in the process goes through one lock.
public enum GraphRenderer {
    /// Lays out `dot` with the Graphviz layout `engine` (`dot`, or `sfdp` for
    /// graphs too dense for ranks) and renders it as `format`. Throws
    /// ``GraphError/layoutEngineUnavailable(_:)`` when the installed Graphviz
    /// lacks the engine's plugin.
    public static func render(dot: String, format: GraphFormat, engine: String = "dot") throws(GraphError) -> String {
        let result: Result<String, GraphError> = lock.withLock {
            if context.pointer == nil {
                // Errors are returned to the caller; Graphviz's warnings would only clutter stderr.
                _ = agseterr(AGERR)
                context.pointer = gvContext()
            }
            guard let gvc = context.pointer else { return .failure(.layoutFailed) }
            // Asked first: an unknown engine would make gvLayout print a paragraph to stderr.
            guard context.hasEngine(engine) else { return .failure(.layoutEngineUnavailable(engine)) }
            guard let graph = dot.withCString({ agmemread($0) }) else { return .failure(.invalidDOT) }
            defer { agclose(graph) }
            guard gvLayout(gvc, graph, engine) == 0 else { return .failure(.layoutFailed) }
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

    /// True if the installed Graphviz has the layout `engine` (its plugins are
    /// packaged separately: `dot` in one, `neato`, `sfdp` and others in another).
    public static func hasLayoutEngine(_ engine: String) -> Bool {
        lock.withLock {
            if context.pointer == nil {
                _ = agseterr(AGERR)
                context.pointer = gvContext()
            }
            return context.hasEngine(engine)
        }
    }

    /// Selects, writes and renders the graph of `model` in one call.
    public static func render(model: TraceModel, options: GraphOptions = GraphOptions(), format: GraphFormat = .svg,
                              title: String = "") throws(GraphError) -> (output: String, graph: DependencyGraph) {
        let graph = try DependencyGraph(model: model, options: options)
        let dot = DOTWriter(graph: graph, title: title).dot()
        return (try render(dot: dot, format: format, engine: graph.layout.engine), graph)
    }

    /// The process-wide Graphviz context, created on first use and kept: the
    /// lock guards it and every call into the library.
    private struct Context {
        var pointer: OpaquePointer?
        /// The layout engines the installed plugins provide, listed once.
        var engines: Set<String>?

        mutating func hasEngine(_ engine: String) -> Bool {
            if engines == nil, let gvc = pointer {
                var found = Set<String>()
                var count: Int32 = 0
                if let list = gvPluginList(gvc, "layout", &count, nil) {
                    for index in 0..<Int(count) {
                        guard let item = list[index] else { continue }
                        // Entries are "name" or "name:package".
                        found.insert(String(cString: item).split(separator: ":").first.map(String.init) ?? "")
                        free(item)
                    }
                    free(list)
                }
                engines = found
            }
            return engines?.contains(engine) ?? false
        }
    }

    /// Guards `context` and every call into Graphviz. An `NSLock` (a pthread
    /// mutex) rather than `Synchronization.Mutex`, whose contended wait on Linux
    /// is a raw futex ThreadSanitizer does not see: `serve` renders on many threads.
    private static let lock = NSLock()
    nonisolated(unsafe) private static var context = Context()
}
