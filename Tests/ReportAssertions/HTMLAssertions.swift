import Foundation
import Testing

/// Structural checks for the HTML reports: tags balance (void elements
/// aside), attributes are quoted, and nothing is loaded from outside the file.
public enum HTMLAssertions {
    public static let voidElements: Set<String> = ["meta", "br", "hr", "img", "input", "link", "col", "area", "base", "source", "wbr"]

    /// The tag names in order, with a leading "/" for closing tags; self-closing tags are dropped.
    public static func tags(_ html: String) -> [String] {
        var result: [String] = []
        var rest = Substring(html)
        while let open = rest.firstIndex(of: "<") {
            rest = rest[rest.index(after: open)...]
            guard let close = rest.firstIndex(of: ">") else { break }
            let tag = rest[..<close]
            rest = rest[rest.index(after: close)...]
            if tag.hasPrefix("!") || tag.hasPrefix("?") { continue }
            let name = tag.prefix { !" \n\t/>".contains($0) || $0 == "/" && tag.first == "/" }
            if tag.hasSuffix("/") { continue }
            let lowered = name.lowercased()
            if voidElements.contains(lowered) { continue }
            result.append(lowered)
            // Raw text elements: skip to their end tag.
            if lowered == "style" || lowered == "script", let end = rest.range(of: "</\(lowered)>") {
                rest = rest[end.lowerBound...]
            }
        }
        return result
    }

    public static func expectBalanced(_ html: String, sourceLocation: SourceLocation = #_sourceLocation) {
        var stack: [String] = []
        for tag in tags(html) {
            if tag.hasPrefix("/") {
                let name = String(tag.dropFirst())
                guard stack.last == name else {
                    Issue.record("</\(name)> closes <\(stack.last ?? "nothing")>", sourceLocation: sourceLocation)
                    return
                }
                stack.removeLast()
            } else {
                stack.append(tag)
            }
        }
        #expect(stack.isEmpty, "unclosed: \(stack)", sourceLocation: sourceLocation)
    }

    /// No `src`, `href` or CSS `url(` pointing outside the document.
    public static func expectSelfContained(_ html: String, sourceLocation: SourceLocation = #_sourceLocation) {
        for attribute in ["src=", "href="] {
            var rest = Substring(html)
            while let match = rest.range(of: attribute) {
                let value = rest[match.upperBound...].dropFirst().prefix { $0 != "\"" && $0 != "'" }
                #expect(value.hasPrefix("#") || value.hasPrefix("data:"), "external reference \(attribute)\(value)",
                        sourceLocation: sourceLocation)
                rest = rest[match.upperBound...]
            }
        }
        #expect(!html.contains("url(http"), "external url() in CSS", sourceLocation: sourceLocation)
        #expect(!html.contains("@import"), "CSS @import", sourceLocation: sourceLocation)
        #expect(!html.contains("<!DOCTYPE svg"), "an SVG DOCTYPE with its DTD URL", sourceLocation: sourceLocation)
    }
}
