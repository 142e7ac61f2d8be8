import ArgumentParser
import Foundation
import ReactorInspector

extension GraphFormat: ExpressibleByArgument {}

/// `reactor-inspect graph TRACE [-o OUT] [--format svg|dot] [--focus NAME] [--depth N] [--top N]`.
struct GraphCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "graph",
        abstract: "Draw the dependency graph as SVG (rendered in process by Graphviz) or DOT.",
        discussion: """
            Autoruns are boxes, computeds hexagons, properties and dependencies ellipses;
            stores are clusters holding their state. Fill colour is heat (reruns or time),
            edge labels count invalidations, dashed edges show nesting; hover a node for
            its statistics. Large or dense graphs show the hottest computations and
            their neighbours (at most 150, fewer when dense) unless asked otherwise;
            a dense selection is drawn without edge labels or, beyond that, laid out
            force-directed. Both say on stderr what they left out or simplified.

            Examples:
              reactor-inspect graph out/todos.trace                 # writes out/todos.svg
              reactor-inspect graph out/todos.trace --focus list --depth 2 -o list.svg
              reactor-inspect graph out/stress.trace --top 30 --heat time
              reactor-inspect graph out/todos.trace --at 2ms --format dot -o -
            """ + MetricsHelp.pointer
    )

    @OptionGroup var trace: TraceArgument
    @OptionGroup var output: OutputOptions

    @Option(name: [.short, .customLong("output")],
            help: ArgumentHelp("Where to write; '-' for stdout. Default: the trace's path with .svg (or .dot). An existing file is replaced (atomically); a device, FIFO or symlink is written through.", valueName: "out"))
    var out: String?

    @Option(help: "svg or dot.")
    var format: GraphFormat = .svg

    @Option(help: ArgumentHelp("Draw the neighbourhood of this node (a computation, computed or property).", valueName: "name"))
    var focus: String?

    @Option(help: "With --focus: how many edges away to go.")
    var depth = 2

    @Option(help: ArgumentHelp("Draw the N hottest computations and their neighbours.", valueName: "n"))
    var top: Int?

    @Flag(help: "Draw every node, however large the graph.")
    var all = false

    @Option(help: ArgumentHelp("Draw the graph as it stood at this trace time (1.5ms, 200us, 2s) or after the N-th action (action:N): the nodes alive, the edges held, counts up to then and values then.",
                               valueName: "time|action:N"))
    var at: String?

    @Option(help: "What the fill colour shows: reruns or time.")
    var heat: HotOrder = .reruns

    func validate() throws {
        if let top, top < 1 { throw ValidationError("--top must be at least 1") }
        guard depth >= 0 else { throw ValidationError("--depth must be 0 or more") }
        if [focus != nil, top != nil, all].filter({ $0 }).count > 1 {
            throw ValidationError("choose one of --focus, --top and --all")
        }
        if let at, case let .failure(error) = TraceMoment.parse(at) { throw ValidationError(error.description) }
    }

    func run() throws {
        let destination = out ?? Self.defaultOutput(for: trace.path, format: format)
        let file = try CIFiles.output(destination, inputs: [trace.path])
        let loaded: Loaded<TraceModel>
        var moment: UInt64?
        if let at {
            let parsed = try TraceMoment.parse(at).get()
            let progress = output.progress(for: trace.path)
            do {
                defer { progress?.finish() }
                let (model, resolved, report) = try TraceFile.model(path: trace.path, at: parsed, index: trace.indexUse,
                                                                    progress: progress?.update)
                loaded = Loaded(value: model, report: report)
                moment = resolved.timestamp
            } catch {
                throw ValidationError(error.description)
            }
        } else {
            loaded = try trace.model(output: output)
        }
        let selection: GraphSelection
        if let focus {
            selection = .focus(name: focus, depth: depth)
        } else if let top {
            selection = .top(top)
        } else {
            selection = all ? .all : .automatic
        }
        let options = GraphOptions(selection: selection, heat: heat, at: moment)
        let title = (trace.path as NSString).lastPathComponent
        let rendered: (output: String, graph: DependencyGraph)
        do {
            rendered = try GraphRenderer.render(model: loaded.value, options: options, format: format, title: title)
        } catch {
            throw ValidationError(error.description)
        }
        do {
            try file.write(rendered.output)
            try file.commit()
        } catch {
            throw ValidationError(error.description)
        }
        if !file.isStandardOutput {
            let graph = rendered.graph
            Terminal.print("wrote \(destination) (\(graph.nodes.count) nodes, \(graph.edges.count) edges)\n")
        }
        if let note = rendered.graph.notice {
            Terminal.standardError.write("reactor-inspect: note: \(note)\n")
        }
        try loaded.finish()
    }

    /// The trace's path with its extension replaced: `out/todos.trace` → `out/todos.svg`.
    static func defaultOutput(for path: String, format: GraphFormat) -> String {
        CIFiles.replacingExtension(of: path, with: format.rawValue)
    }
}
