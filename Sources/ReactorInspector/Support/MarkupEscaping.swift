import Foundation

/// Escaping for the XML (SVG, JUnit), HTML and Markdown the inspector writes.
/// Names are data: nothing in a name can open a tag, end a CDATA section, break
/// a table row or put a byte into a document that its parser rejects.
enum MarkupEscaping {
    /// Text safe inside XML/HTML element content and double- or single-quoted
    /// attributes: `& < > " '` as entities, and every character XML 1.0 forbids
    /// (C0 controls other than tab, LF and CR; U+FFFE, U+FFFF) or HTML reports as
    /// a parse error (DEL and the C1 controls), and the bidi overrides and isolates
    /// (which would reorder what a reader sees), shown as a visible escape (`\u{1B}`).
    static func xml(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            case "\t", "\n", "\r": result.unicodeScalars.append(scalar)
            default:
                if isForbiddenInMarkup(scalar) || TerminalEscaping.needsEscape(scalar) {
                    result += TerminalEscaping.visible(scalar)
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }

    /// True for the characters XML 1.0 forbids, and DEL and C1 controls (an error in
    /// HTML); tab, LF and CR are allowed. Surrogates cannot occur in a `String`.
    static func isForbiddenInMarkup(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D: false
        case 0x00...0x1F, 0x7F...0x9F, 0xFFFE, 0xFFFF: true
        default: false
        }
    }

    /// Text safe inside a Markdown table cell: pipes and backslashes escaped,
    /// line breaks (CR, LF, CRLF) flattened to a space, other controls and bidi
    /// overrides as visible escapes (the Markdown may be printed to a terminal),
    /// HTML-significant characters escaped so a name cannot open a tag in a
    /// rendered PR comment.
    static func markdownCell(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "|": result += "\\|"
            case "\\": result += "\\\\"
            case "\n", "\r": result += " "
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "&": result += "&amp;"
            case "`": result += "\\`"
            case "*", "_", "[", "]": result += "\\" + String(scalar)
            default:
                if TerminalEscaping.needsEscape(scalar) || isForbiddenInMarkup(scalar) {
                    result += TerminalEscaping.visible(scalar)
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }

    /// `text` as Markdown inline code, with a fence longer than any backtick run
    /// inside it; line breaks (CR, LF) become spaces, `|` is escaped for tables,
    /// other controls and bidi overrides become visible escapes.
    static func markdownCode(_ text: String) -> String {
        var flattened = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n", "\r": flattened += " "
            case "|": flattened += "\\|"
            default:
                if TerminalEscaping.needsEscape(scalar) || isForbiddenInMarkup(scalar) {
                    flattened += TerminalEscaping.visible(scalar)
                } else {
                    flattened.unicodeScalars.append(scalar)
                }
            }
        }
        var longest = 0, run = 0
        for character in flattened {
            run = character == "`" ? run + 1 : 0
            longest = max(longest, run)
        }
        let fence = String(repeating: "`", count: longest + 1)
        let pad = flattened.hasPrefix("`") || flattened.hasSuffix("`") ? " " : ""
        return fence + pad + flattened + pad + fence
    }
}
