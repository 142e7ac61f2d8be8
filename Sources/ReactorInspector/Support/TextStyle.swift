/// How reports print: with ANSI colours on a terminal, plain otherwise.
public struct TextStyle: Sendable, Equatable {
    /// True to emit ANSI escape sequences.
    public let colors: Bool

    /// Plain text, for pipes, files and `NO_COLOR`.
    public static let plain = TextStyle(colors: false)
    /// ANSI colours, for terminals.
    public static let ansi = TextStyle(colors: true)

    /// Creates a style.
    public init(colors: Bool) {
        self.colors = colors
    }

    /// Bold text (headings, names).
    public func bold(_ text: String) -> String { wrap(text, "1") }
    /// Dimmed text (secondary details).
    public func dim(_ text: String) -> String { wrap(text, "2") }
    /// Red text (hot numbers, errors).
    public func red(_ text: String) -> String { wrap(text, "31") }
    /// Yellow text (warnings, warm numbers).
    public func yellow(_ text: String) -> String { wrap(text, "33") }
    /// Cyan text (actions, dependencies).
    public func cyan(_ text: String) -> String { wrap(text, "36") }
    /// Green text (computations).
    public func green(_ text: String) -> String { wrap(text, "32") }

    private func wrap(_ text: String, _ code: String) -> String {
        colors ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
