/// A shell-style glob over node names: `*` matches any run of characters
/// (including none and including dots), `?` exactly one, `[abc]`, `[a-z]`
/// and `[!x]` one character of a class; `\` escapes the next character.
/// Matching is case-sensitive and covers the whole name.
public struct Glob: Sendable, Equatable, CustomStringConvertible {
    private enum Token: Sendable, Equatable {
        case literal(Character)
        case any
        case anyRun
        case characterClass(ranges: [ClosedRange<Character>], negated: Bool)
    }

    /// The pattern as written.
    public let pattern: String
    private let tokens: [Token]

    /// Compiles `pattern`; throws when a character class is not closed.
    public init(_ pattern: String) throws(GlobError) {
        self.pattern = pattern
        var tokens: [Token] = []
        let characters = Array(pattern)
        var index = 0
        while index < characters.count {
            let character = characters[index]
            switch character {
            case "*":
                if tokens.last != .anyRun { tokens.append(.anyRun) }
                index += 1
            case "?":
                tokens.append(.any)
                index += 1
            case "\\":
                guard index + 1 < characters.count else { throw GlobError(pattern: pattern, message: "trailing '\\'") }
                tokens.append(.literal(characters[index + 1]))
                index += 2
            case "[":
                var cursor = index + 1
                var negated = false
                if cursor < characters.count, characters[cursor] == "!" || characters[cursor] == "^" {
                    negated = true
                    cursor += 1
                }
                var ranges: [ClosedRange<Character>] = []
                var first = true
                while cursor < characters.count, characters[cursor] != "]" || first {
                    first = false
                    let low = characters[cursor]
                    if cursor + 2 < characters.count, characters[cursor + 1] == "-", characters[cursor + 2] != "]" {
                        let high = characters[cursor + 2]
                        guard low <= high else {
                            throw GlobError(pattern: pattern, message: "empty range '\(low)-\(high)'")
                        }
                        ranges.append(low...high)
                        cursor += 3
                    } else {
                        ranges.append(low...low)
                        cursor += 1
                    }
                }
                guard cursor < characters.count else {
                    throw GlobError(pattern: pattern, message: "'[' without a closing ']'")
                }
                tokens.append(.characterClass(ranges: ranges, negated: negated))
                index = cursor + 1
            default:
                tokens.append(.literal(character))
                index += 1
            }
        }
        self.tokens = tokens
    }

    /// True when the whole of `name` matches.
    public func matches(_ name: String) -> Bool {
        let characters = Array(name)
        // Iterative wildcard matching with one backtrack point per `*`: linear
        // in practice, never exponential.
        var t = 0, c = 0
        var starToken = -1, starCharacter = 0
        while c < characters.count {
            if t < tokens.count, matchesOne(tokens[t], characters[c]) {
                t += 1
                c += 1
            } else if t < tokens.count, tokens[t] == .anyRun {
                starToken = t
                starCharacter = c
                t += 1
            } else if starToken >= 0 {
                t = starToken + 1
                starCharacter += 1
                c = starCharacter
            } else {
                return false
            }
        }
        while t < tokens.count, tokens[t] == .anyRun { t += 1 }
        return t == tokens.count
    }

    private func matchesOne(_ token: Token, _ character: Character) -> Bool {
        switch token {
        case .literal(let literal): literal == character
        case .any: true
        case .anyRun: false
        case .characterClass(let ranges, let negated): ranges.contains { $0.contains(character) } != negated
        }
    }

    /// The pattern.
    public var description: String { pattern }
}

/// A glob pattern that cannot be compiled.
public struct GlobError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The pattern.
    public var pattern: String
    /// What is wrong with it.
    public var message: String
    /// `invalid pattern "x[": '[' without a closing ']'`.
    public var description: String { "invalid pattern \"\(pattern)\": \(message)" }
}
