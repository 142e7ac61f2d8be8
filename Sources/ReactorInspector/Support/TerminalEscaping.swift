/// How text from a trace (names, action arguments, issue messages) is shown on a
/// terminal. Names are data: a trace may come from anywhere, and a name must not
/// move the cursor, set the window title, ring the bell, reorder the line or start
/// a new one. With or without colour, every such character is shown as a visible
/// escape (`\u{1B}`), so the name can still be told apart and searched for.
public enum TerminalEscaping {
    /// `text` with every character a terminal acts on as a visible escape: C0 controls
    /// (NUL, BEL, BS, TAB, LF, CR, ESC…), DEL, C1 controls (U+0080–U+009F, which some
    /// terminals read as CSI and OSC), the bidirectional overrides, embeddings and
    /// isolates (U+202A–U+202E, U+2066–U+2069), the bidi marks and the line and
    /// paragraph separators.
    public static func escape(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            if needsEscape(scalar) {
                out += visible(scalar)
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// True for the characters ``escape(_:)`` replaces.
    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x200E, 0x200F, 0x061C: true          // bidi marks
        case 0x202A...0x202E, 0x2066...0x2069: true // bidi embeddings, overrides, isolates
        case 0x2028, 0x2029: true                   // line and paragraph separators
        default: false
        }
    }

    /// `\u{1B}`: Swift's spelling of the scalar, uppercase hex without leading zeros.
    static func visible(_ scalar: Unicode.Scalar) -> String {
        "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
    }
}
