import Foundation

/// Escaping for the XML, HTML and Markdown the CI tools write.
enum MarkupEscaping {
    /// Text safe inside XML/HTML element content and double- or single-quoted
    /// attributes. Characters XML 1.0 forbids (most C0 controls) become U+FFFD.
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
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF {
                    result += "\u{FFFD}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }

    /// Text safe inside a Markdown table cell: pipes and backslashes escaped,
    /// line breaks flattened, HTML-significant characters escaped so a name
    /// cannot open a tag in a rendered PR comment.
    static func markdownCell(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "|": result += "\\|"
            case "\\": result += "\\\\"
            case "\n", "\r", "\r\n": result += " "
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "&": result += "&amp;"
            case "`": result += "\\`"
            case "*", "_", "[", "]": result += "\\\(character)"
            default: result.append(character)
            }
        }
        return result
    }

    /// `text` as Markdown inline code, with a fence longer than any backtick run inside it.
    static func markdownCode(_ text: String) -> String {
        let flattened = text.replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "|", with: "\\|")
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
