import ReactorTraceFormat

/// Writes a ``DependencyGraph`` in Graphviz's DOT language, designed to be
/// read: autoruns are boxes, computeds hexagons, dependencies and properties
/// ellipses; stores are clusters holding their state; fill colour is heat, with
/// a legend; edge labels count invalidations; nesting edges are dashed; every
/// node and edge carries a tooltip with its statistics.
package struct DOTWriter: Sendable {
    /// The graph to write.
    public let graph: DependencyGraph
    /// A title shown at the top (e.g. the trace's file name).
    public let title: String
    /// Each node's position in the graph's nodes, by key (for its element id).
    private let positions: [String: Int]

    /// Creates a writer.
    public init(graph: DependencyGraph, title: String = "") {
        self.graph = graph
        self.title = title
        positions = Dictionary(graph.nodes.enumerated().map { ($1.key, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The DOT source.
    public func dot() -> String {
        let warm = HeatScale(maximum: graph.maximumComputationHeat, colors: HeatScale.warm)
        let cool = HeatScale(maximum: graph.maximumDependencyHeat, colors: HeatScale.cool)
        var out = "digraph reactor {\n"
        var caption = title.isEmpty ? [] : [title]
        caption.append(graph.at.map { "graph at \(DurationText.formatTime($0))" } ?? "all-time graph")
        if let note = graph.omissionNote { caption.append(note) }
        if let note = graph.layout.note { caption.append(note) }
        out += "  graph [rankdir=LR, fontname=\"Helvetica\", fontsize=11, nodesep=0.3, ranksep=0.7, newrank=true, "
        out += layoutAttributes()
        out += "labelloc=t, labeljust=l, label=\"\(Self.lines(caption))\", tooltip=\"Reactor dependency graph\"];\n"
        out += "  node [fontname=\"Helvetica\", fontsize=10, style=filled, penwidth=1, color=\"#555555\"];\n"
        out += "  edge [fontname=\"Helvetica\", fontsize=9, color=\"#666666\", fontcolor=\"#333333\", arrowsize=0.7];\n"
        // The fast layout places nodes itself; Graphviz's nop engine cannot draw clusters around them.
        let placement = graph.layout.quality == .fast ? placement() : nil
        var byStore: [String: [DependencyGraph.Node]] = [:]
        var storeOrder: [String] = []
        for (index, node) in graph.nodes.enumerated() {
            if placement == nil, let store = node.store {
                if byStore[store] == nil { storeOrder.append(store) }
                byStore[store, default: []].append(node)
            } else {
                out += "  " + statement(for: node, warm: warm, cool: cool, at: placement?.positions[index]) + "\n"
            }
        }
        for (position, store) in storeOrder.enumerated() {
            out += "  subgraph cluster_store\(position) {\n"
            out += "    label=\"store \(Self.escape(store))\"; style=\"rounded,filled\"; fillcolor=\"#f3f3f3\"; color=\"#9a9a9a\"; "
            out += "tooltip=\"store \(Self.escape(store)): \(byStore[store]!.count) properties\";\n"
            for node in byStore[store]! { out += "    " + statement(for: node, warm: warm, cool: cool) + "\n" }
            out += "  }\n"
        }
        let names = Dictionary(uniqueKeysWithValues: graph.nodes.map { ($0.key, $0.name) })
        for edge in graph.edges {
            out += "  \(Self.identifier(edge.from)) -> \(Self.identifier(edge.to)) ["
                + attributes(for: edge, names: names) + "];\n"
        }
        var legendKey = "legend"
        while names[legendKey] != nil { legendKey += "'" }
        // Left of the first rank, at the top.
        out += legend(warm: warm, key: legendKey, at: placement.map { $0.topLeft + SIMD2<Double>(-120, 0) })
        out += "}\n"
        return out
    }

    /// Bounds on dot's optimisation passes, or straight edges for the fast layout (see ``GraphLayout``).
    private func layoutAttributes() -> String {
        let layout = graph.layout
        var attributes = ""
        if let limit = layout.placementLimit { attributes += "nslimit=\(limit), " }
        if let limit = layout.crossingLimit { attributes += "mclimit=\(limit), " }
        if layout.quality == .fast { attributes += "splines=false, " }
        return attributes
    }

    /// Positions for the fast layout, from each node's label width.
    private func placement() -> LayeredPlacement {
        let widths = graph.nodes.map { node in
            LayeredPlacement.width(of: label(for: node, inCluster: false).map(Self.escape), hexagon: node.kind == .computed)
        }
        return LayeredPlacement(estimate: graph.layout.estimate, widths: widths)
    }

    private func statement(for node: DependencyGraph.Node, warm: HeatScale, cool: HeatScale,
                           at position: SIMD2<Double>? = nil) -> String {
        let scale = node.isComputation ? warm : cool
        let level = scale.level(of: node.heat)
        var attributes: [String] = []
        switch node.kind {
        case _ where node.layer != nil: attributes.append("shape=box3d")
        case .computation: attributes.append("shape=box, style=\"rounded,filled\"")
        case .computed: attributes.append("shape=hexagon")
        case .operator, .binding: attributes.append("shape=cds")
        default: attributes.append("shape=ellipse")
        }
        attributes.append("fillcolor=\"\(scale.colors[level])\"")
        if scale.isDark(level) { attributes.append("fontcolor=\"white\"") }
        attributes.append("label=\"\(Self.lines(label(for: node, inCluster: position == nil)))\"")
        if let position { attributes.append("pos=\"\(Self.point(position))\"") }
        attributes.append("tooltip=\"\(Self.lines(tooltip(for: node)))\"")
        if let index = positions[node.key] {
            attributes.append("id=\"\(Self.elementID(ofNodeAt: index))\"")
        }
        return Self.identifier(node.key) + " [" + attributes.joined(separator: ", ") + "];"
    }

    /// The label's lines, unescaped.
    private func label(for node: DependencyGraph.Node, inCluster: Bool) -> [String] {
        if node.layer != nil {
            let metric = graph.heat == .time ? DurationText.format(node.runs.totalNanoseconds)
                : "\(node.runs.reruns) rerun\(node.runs.reruns == 1 ? "" : "s")"
            return [node.name, "\(node.members.count) \(node.kind.label)s", metric]
        }
        var name = node.name
        // In its store's cluster, a property goes by its short name.
        if inCluster, let store = node.store, name.hasPrefix(store + ".") { name = String(name.dropFirst(store.count + 1)) }
        if node.ids.count > 1 { name += " ×\(node.ids.count)" }
        let value = node.value.map { ["= " + Self.shortened($0)] } ?? []
        if node.isComputation {
            let metric = graph.heat == .time ? DurationText.format(node.runs.totalNanoseconds)
                : "\(node.runs.reruns) rerun\(node.runs.reruns == 1 ? "" : "s")"
            return [name, metric] + value
        }
        return (node.changes > 0 ? [name, "\(node.changes) change\(node.changes == 1 ? "" : "s")"] : [name]) + value
    }

    /// A value cut to fit a node's label (the tooltip has it whole).
    static func shortened(_ value: String, limit: Int = 32) -> String {
        value.count <= limit ? value : String(value.prefix(limit - 1)) + "…"
    }

    /// The tooltip's lines, unescaped.
    private func tooltip(for node: DependencyGraph.Node) -> [String] {
        if node.layer != nil {
            let shown = node.members.prefix(12).joined(separator: ", ")
            return ["\(node.name): \(node.members.count) computations (click to expand)",
                    shown + (node.members.count > 12 ? ", … \(node.members.count - 12) more" : "")]
        }
        var lines = ["\(node.name) (\(node.kind.label)\(node.ids.count > 1 ? ", \(node.ids.count) instances" : ""))"]
        if let site = node.site { lines.append("created at \(site)") }
        if let value = node.value { lines.append("value: \(value)") }
        if node.isComputation {
            let runs = node.runs
            lines.append("runs: \(runs.runs) (\(runs.reruns) reruns)")
            lines.append("time: \(DurationText.format(runs.totalNanoseconds)) total, \(DurationText.format(runs.selfNanoseconds)) self")
            if runs.runs > 0 {
                lines.append("run: p50 \(DurationText.format(runs.p50Nanoseconds)), p99 \(DurationText.format(runs.p99Nanoseconds)), max \(DurationText.format(runs.maxNanoseconds))")
            }
            let counts = node.invalidations
            var causes: [String] = []
            if counts.byDependency > 0 { causes.append("\(counts.byDependency) by dependencies") }
            if counts.byParent > 0 { causes.append("\(counts.byParent) with parent") }
            if counts.explicit > 0 { causes.append("\(counts.explicit) explicit") }
            if counts.byStop > 0 { causes.append("\(counts.byStop) stop()") }
            if counts.byRunaway > 0 { causes.append("\(counts.byRunaway) runaway") }
            if counts.byError > 0 { causes.append("\(counts.byError) error") }
            lines.append("invalidations: " + (causes.isEmpty ? "0" : causes.joined(separator: ", ")))
        }
        if node.kind != .computation { lines.append("changes: \(node.changes)") }
        if let store = node.store { lines.append("store: \(store)") }
        return lines
    }

    private func attributes(for edge: DependencyGraph.Edge, names: [String: String]) -> String {
        let from = names[edge.from] ?? edge.from, to = names[edge.to] ?? edge.to
        if edge.isNesting {
            var attributes = "style=dashed, arrowhead=odot, color=\"#888888\""
            attributes += ", tooltip=\"\(Self.escape(to)) is nested in \(Self.escape(from))"
            attributes += edge.invalidations > 0 ? "; stopped with it \(edge.invalidations) times\"" : "\""
            return attributes
        }
        var attributes: [String] = []
        if edge.invalidations > 0 {
            // Dense graphs go without labels: dot gives each its own rank, doubling the layout work.
            if graph.layout.edgeLabels { attributes.append("label=\"×\(edge.invalidations)\"") }
            attributes.append("penwidth=\(min(4, 1 + Double(edge.invalidations).squareRoot() / 4))")
        } else {
            attributes.append("color=\"#aaaaaa\"")
        }
        attributes.append("tooltip=\"\(Self.escape(to)) reads \(Self.escape(from)): \(edge.invalidations) invalidations, read in \(edge.depends) runs\"")
        return attributes.joined(separator: ", ")
    }

    private func legend(warm: HeatScale, key: String, at position: SIMD2<Double>?) -> String {
        let metric = graph.heat == .time ? "total run time" : "reruns"
        var cells = ""
        for level in stride(from: 0, to: warm.colors.count, by: 2) {
            let bound = warm.lowerBound(of: level)
            let text = graph.heat == .time ? "≥ " + DurationText.format(UInt64(bound)) : "≥ \(Int(bound.rounded(.up)))"
            let font = warm.isDark(level) ? " COLOR=\"white\"" : ""
            cells += "<TD BGCOLOR=\"\(warm.colors[level])\" BORDER=\"1\"><FONT POINT-SIZE=\"9\"\(font)>\(Self.html(text))</FONT></TD>"
        }
        let small = "<FONT POINT-SIZE=\"9\">"
        var out = "  \(Self.identifier(key)) [shape=plaintext, style=\"\", "
        if let position { out += "pos=\"\(Self.point(position))\", " }
        out += "tooltip=\"legend: fill colour is \(metric) on a log scale "
        out += "(dependencies in blue by changes); edge \(graph.layout.edgeLabels ? "labels" : "tooltips") count invalidations; "
        out += "dashed edges join nested computations\", "
        out += "label=<<TABLE BORDER=\"1\" COLOR=\"#bbbbbb\" CELLBORDER=\"0\" CELLSPACING=\"2\" CELLPADDING=\"2\">"
        out += "<TR><TD COLSPAN=\"5\" ALIGN=\"LEFT\">\(small)<B>legend</B>  fill: \(Self.html(metric))</FONT></TD></TR>"
        out += "<TR>\(cells)</TR>"
        out += "<TR><TD COLSPAN=\"5\" ALIGN=\"LEFT\">\(small)box: autorun · hexagon: computed · arrow: operator or binding · ellipse: property, subject</FONT></TD></TR>"
        let edges = graph.layout.edgeLabels ? "×n: invalidations" : "hover an edge: invalidations"
        out += "<TR><TD COLSPAN=\"5\" ALIGN=\"LEFT\">\(small)\(edges) · dashed: nesting</FONT></TD></TR>"
        out += "</TABLE>>];\n"
        return out
    }

    /// A position as Graphviz's `pos` ("x,y" in points), to a tenth of a point.
    static func point(_ position: SIMD2<Double>) -> String {
        func text(_ value: Double) -> String {
            let tenths = Int((value * 10).rounded())
            let sign = tenths < 0 ? "-" : ""
            return "\(sign)\(abs(tenths) / 10).\(abs(tenths) % 10)"
        }
        return text(position.x) + "," + text(position.y)
    }

    /// The SVG element id of the node at `index` in the graph's nodes: a page
    /// can find a node's group by it whatever characters its name holds.
    package static func elementID(ofNodeAt index: Int) -> String {
        "graph-node-\(index)"
    }

    /// A node's name as a quoted DOT identifier.
    static func identifier(_ key: String) -> String {
        "\"" + escape(key) + "\""
    }

    /// `lines` escaped and joined with DOT's line break, for labels and tooltips.
    static func lines(_ lines: [String]) -> String {
        lines.map(escape).joined(separator: "\\n")
    }

    /// Escapes text for a DOT double-quoted string. Names are data: a name's own
    /// line breaks and controls, and the characters XML forbids, become visible
    /// escapes (`\u{1B}`) instead of breaking a line or reaching the SVG, and `&`
    /// becomes `&amp;` because Graphviz decodes entities in labels.
    static func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "&": out += "&amp;"
            default:
                if TerminalEscaping.needsEscape(scalar) || MarkupEscaping.isForbiddenInMarkup(scalar) {
                    out += "\\" + TerminalEscaping.visible(scalar)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    /// Escapes text for an HTML-like label.
    static func html(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(character)
            }
        }
        return out
    }
}
