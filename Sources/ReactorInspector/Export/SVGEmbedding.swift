import Foundation

/// Prepares a standalone SVG document (as Graphviz writes it) for inlining
/// in HTML: drops the XML declaration, DOCTYPE (whose DTD URL a browser
/// could fetch) and comments, removes links to anything outside the page,
/// and marks chosen nodes so CSS can highlight them.
package enum SVGEmbedding {
    // Searches are the standard library's (`firstRange(of:)`): Foundation's `range(of:)` on a
    // substring measures it in UTF-16 from the start at each call, quadratic in a large graph.

    /// The `<svg>` element of `document`, safe to inline. Node groups
    /// (`<g class="node">`) whose `<title>` or text is one of `highlighted` get
    /// the extra class `hot`.
    public static func inline(_ document: String, highlighted: Set<String> = []) -> String {
        guard let svgStart = document.range(of: "<svg") else { return "" }
        var svg = String(document[svgStart.lowerBound...])
        if let end = svg.range(of: "</svg>", options: .backwards) {
            svg = String(svg[..<end.upperBound])
        }
        svg = removingComments(svg)
        svg = removingExternalLinks(svg)
        if !highlighted.isEmpty { svg = markingNodes(svg, highlighted: highlighted) }
        return svg
    }

    private static func removingComments(_ text: String) -> String {
        var result = ""
        var rest = Substring(text)
        while let open = rest.firstRange(of: "<!--") {
            result += rest[..<open.lowerBound]
            guard let close = rest[open.upperBound...].firstRange(of: "-->") else { return result }
            rest = rest[close.upperBound...]
        }
        return result + rest
    }

    /// Drops `href`/`xlink:href` attributes that point outside the document (anything but `#fragment`).
    private static func removingExternalLinks(_ text: String) -> String {
        var result = ""
        var rest = Substring(text)
        while let match = rest.firstRange(of: "href=\"") {
            // Include a namespace prefix such as `xlink:` in what is removed.
            let attributeStart = rest[..<match.lowerBound].hasSuffix("xlink:")
                ? rest.index(match.lowerBound, offsetBy: -6) : match.lowerBound
            guard let close = rest[match.upperBound...].firstIndex(of: "\"") else { break }
            let value = rest[match.upperBound..<close]
            result += rest[..<attributeStart]
            if value.hasPrefix("#") { result += rest[attributeStart...close] }
            rest = rest[rest.index(after: close)...]
        }
        return result + rest
    }

    private static func markingNodes(_ svg: String, highlighted: Set<String>) -> String {
        let escaped = Set(highlighted.map { MarkupEscaping.xml($0) })
        var result = ""
        var rest = Substring(svg)
        let marker = "class=\"node\""
        while let match = rest.firstRange(of: marker) {
            result += rest[..<match.lowerBound]
            let groupEnd = rest[match.upperBound...].firstRange(of: "</g>")?.lowerBound ?? rest.endIndex
            let group = rest[match.upperBound..<groupEnd]
            let hot = escaped.contains { name in
                group.firstRange(of: ">\(name)</title>") != nil || group.firstRange(of: ">\(name)</text>") != nil
            }
            result += hot ? "class=\"node hot\"" : marker
            rest = rest[match.upperBound...]
        }
        return result + rest
    }
}
