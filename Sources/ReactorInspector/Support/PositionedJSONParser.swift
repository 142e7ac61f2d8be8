/// A strict RFC 8259 JSON parser that records the line and column of every
/// value and key. `JSONSerialization` reports neither, and a budget file that
/// gates CI must say exactly where it is wrong.
package struct PositionedJSONParser {
    private let scalars: [Unicode.Scalar]
    private var index = 0
    private var line = 1
    private var column = 1
    /// Deeper nesting than this is refused rather than risking the stack.
    private let maximumDepth = 512

    /// Prepares to parse `text`.
    public init(_ text: String) {
        scalars = Array(text.unicodeScalars)
    }

    /// Parses one JSON value spanning the whole text (whitespace around it allowed).
    public static func parse(_ text: String) throws(JSONSyntaxError) -> PositionedJSON {
        var parser = PositionedJSONParser(text)
        return try parser.parseDocument()
    }

    /// Parses the text given at creation.
    public mutating func parseDocument() throws(JSONSyntaxError) -> PositionedJSON {
        if scalars.first == "\u{FEFF}" { index = 1 }
        skipWhitespace()
        guard index < scalars.count else { throw JSONSyntaxError("empty document, expected a JSON value", at: here) }
        let value = try parseValue(depth: 0)
        skipWhitespace()
        if index < scalars.count {
            throw JSONSyntaxError("unexpected \(describe(scalars[index])) after the end of the JSON value", at: here)
        }
        return value
    }

    private var here: PositionedJSON.Position { .init(line: line, column: column) }

    private mutating func advance() {
        if scalars[index] == "\n" {
            line += 1
            column = 1
        } else {
            column += 1
        }
        index += 1
    }

    private mutating func skipWhitespace() {
        while index < scalars.count {
            switch scalars[index] {
            case " ", "\t", "\n", "\r": advance()
            default: return
            }
        }
    }

    private func describe(_ scalar: Unicode.Scalar) -> String {
        if scalar.value < 0x20 || scalar.value == 0x7F {
            return "control character U+\(String(scalar.value, radix: 16, uppercase: true))"
        }
        return "'\(Character(scalar))'"
    }

    private mutating func parseValue(depth: Int) throws(JSONSyntaxError) -> PositionedJSON {
        guard depth < maximumDepth else { throw JSONSyntaxError("nesting deeper than \(maximumDepth) levels", at: here) }
        guard index < scalars.count else { throw JSONSyntaxError("unexpected end of input, expected a value", at: here) }
        let start = here
        switch scalars[index] {
        case "{": return try parseObject(depth: depth)
        case "[": return try parseArray(depth: depth)
        case "\"": return PositionedJSON(.string(try parseString()), at: start)
        case "t": try expectWord("true"); return PositionedJSON(.bool(true), at: start)
        case "f": try expectWord("false"); return PositionedJSON(.bool(false), at: start)
        case "n": try expectWord("null"); return PositionedJSON(.null, at: start)
        case "-", "0"..."9": return PositionedJSON(.number(try parseNumber()), at: start)
        case let other: throw JSONSyntaxError("unexpected \(describe(other)), expected a value", at: start)
        }
    }

    private mutating func expectWord(_ word: String) throws(JSONSyntaxError) {
        let start = here
        for expected in word.unicodeScalars {
            guard index < scalars.count, scalars[index] == expected else {
                throw JSONSyntaxError("invalid literal, expected '\(word)'", at: start)
            }
            advance()
        }
    }

    private mutating func parseObject(depth: Int) throws(JSONSyntaxError) -> PositionedJSON {
        let start = here
        advance()  // {
        var members: [PositionedJSON.Member] = []
        skipWhitespace()
        if index < scalars.count, scalars[index] == "}" {
            advance()
            return PositionedJSON(.object(members), at: start)
        }
        while true {
            skipWhitespace()
            guard index < scalars.count else { throw JSONSyntaxError("unexpected end of input inside an object", at: here) }
            guard scalars[index] == "\"" else {
                throw JSONSyntaxError("expected a quoted key, found \(describe(scalars[index]))", at: here)
            }
            let keyPosition = here
            let key = try parseString()
            if members.contains(where: { $0.key == key }) {
                throw JSONSyntaxError("duplicate key \"\(key)\"", at: keyPosition)
            }
            skipWhitespace()
            guard index < scalars.count, scalars[index] == ":" else {
                throw JSONSyntaxError("expected ':' after key \"\(key)\"", at: here)
            }
            advance()
            skipWhitespace()
            let value = try parseValue(depth: depth + 1)
            members.append(.init(key: key, keyPosition: keyPosition, value: value))
            skipWhitespace()
            guard index < scalars.count else { throw JSONSyntaxError("unexpected end of input, expected ',' or '}'", at: here) }
            switch scalars[index] {
            case ",":
                advance()
                skipWhitespace()
                if index < scalars.count, scalars[index] == "}" {
                    throw JSONSyntaxError("trailing comma before '}'", at: here)
                }
            case "}":
                advance()
                return PositionedJSON(.object(members), at: start)
            case let other:
                throw JSONSyntaxError("expected ',' or '}' after an object member, found \(describe(other))", at: here)
            }
        }
    }

    private mutating func parseArray(depth: Int) throws(JSONSyntaxError) -> PositionedJSON {
        let start = here
        advance()  // [
        var elements: [PositionedJSON] = []
        skipWhitespace()
        if index < scalars.count, scalars[index] == "]" {
            advance()
            return PositionedJSON(.array(elements), at: start)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue(depth: depth + 1))
            skipWhitespace()
            guard index < scalars.count else { throw JSONSyntaxError("unexpected end of input, expected ',' or ']'", at: here) }
            switch scalars[index] {
            case ",":
                advance()
                skipWhitespace()
                if index < scalars.count, scalars[index] == "]" {
                    throw JSONSyntaxError("trailing comma before ']'", at: here)
                }
            case "]":
                advance()
                return PositionedJSON(.array(elements), at: start)
            case let other:
                throw JSONSyntaxError("expected ',' or ']' after an array element, found \(describe(other))", at: here)
            }
        }
    }

    private mutating func parseString() throws(JSONSyntaxError) -> String {
        let start = here
        advance()  // opening quote
        var result = String.UnicodeScalarView()
        while true {
            guard index < scalars.count else { throw JSONSyntaxError("unterminated string", at: start) }
            let scalar = scalars[index]
            switch scalar {
            case "\"":
                advance()
                return String(result)
            case "\\":
                let escapePosition = here
                advance()
                guard index < scalars.count else { throw JSONSyntaxError("unterminated string", at: start) }
                let escaped = scalars[index]
                advance()
                switch escaped {
                case "\"": result.append("\"")
                case "\\": result.append("\\")
                case "/": result.append("/")
                case "b": result.append("\u{08}")
                case "f": result.append("\u{0C}")
                case "n": result.append("\n")
                case "r": result.append("\r")
                case "t": result.append("\t")
                case "u":
                    let unit = try parseHex4(escapePosition)
                    if (0xD800...0xDBFF).contains(unit) {
                        guard index + 1 < scalars.count, scalars[index] == "\\", scalars[index + 1] == "u" else {
                            throw JSONSyntaxError("unpaired UTF-16 surrogate in \\u escape", at: escapePosition)
                        }
                        advance(); advance()
                        let low = try parseHex4(escapePosition)
                        guard (0xDC00...0xDFFF).contains(low) else {
                            throw JSONSyntaxError("unpaired UTF-16 surrogate in \\u escape", at: escapePosition)
                        }
                        let combined = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                        result.append(Unicode.Scalar(combined)!)
                    } else if let decoded = Unicode.Scalar(unit) {
                        result.append(decoded)
                    } else {
                        throw JSONSyntaxError("unpaired UTF-16 surrogate in \\u escape", at: escapePosition)
                    }
                default:
                    throw JSONSyntaxError("invalid escape '\\\(Character(escaped))' in string", at: escapePosition)
                }
            default:
                if scalar.value < 0x20 {
                    throw JSONSyntaxError("unescaped \(describe(scalar)) in string", at: here)
                }
                result.append(scalar)
                advance()
            }
        }
    }

    private mutating func parseHex4(_ escapePosition: PositionedJSON.Position) throws(JSONSyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard index < scalars.count, let digit = hexValue(scalars[index]) else {
                throw JSONSyntaxError("\\u escape needs four hexadecimal digits", at: escapePosition)
            }
            value = value << 4 | digit
            advance()
        }
        return value
    }

    private func hexValue(_ scalar: Unicode.Scalar) -> UInt32? {
        switch scalar {
        case "0"..."9": scalar.value - 48
        case "a"..."f": scalar.value - 87
        case "A"..."F": scalar.value - 55
        default: nil
        }
    }

    private mutating func parseNumber() throws(JSONSyntaxError) -> Double {
        let start = here
        var text = ""
        func isDigit(_ s: Unicode.Scalar) -> Bool { ("0"..."9").contains(s) }
        if scalars[index] == "-" { text.unicodeScalars.append("-"); advance() }
        guard index < scalars.count, isDigit(scalars[index]) else {
            throw JSONSyntaxError("invalid number: expected a digit", at: start)
        }
        if scalars[index] == "0" {
            text.unicodeScalars.append("0"); advance()
            if index < scalars.count, isDigit(scalars[index]) {
                throw JSONSyntaxError("invalid number: leading zeros are not allowed", at: start)
            }
        } else {
            while index < scalars.count, isDigit(scalars[index]) { text.unicodeScalars.append(scalars[index]); advance() }
        }
        if index < scalars.count, scalars[index] == "." {
            text.unicodeScalars.append("."); advance()
            guard index < scalars.count, isDigit(scalars[index]) else {
                throw JSONSyntaxError("invalid number: expected a digit after '.'", at: start)
            }
            while index < scalars.count, isDigit(scalars[index]) { text.unicodeScalars.append(scalars[index]); advance() }
        }
        if index < scalars.count, scalars[index] == "e" || scalars[index] == "E" {
            text.unicodeScalars.append("e"); advance()
            if index < scalars.count, scalars[index] == "+" || scalars[index] == "-" {
                text.unicodeScalars.append(scalars[index]); advance()
            }
            guard index < scalars.count, isDigit(scalars[index]) else {
                throw JSONSyntaxError("invalid number: expected a digit in the exponent", at: start)
            }
            while index < scalars.count, isDigit(scalars[index]) { text.unicodeScalars.append(scalars[index]); advance() }
        }
        guard let value = Double(text), value.isFinite else {
            throw JSONSyntaxError("number out of range", at: start)
        }
        return value
    }
}
