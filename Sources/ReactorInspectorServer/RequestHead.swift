/// A request line and its headers, as a client of `serve` sent them: parsed
/// in one pass over bytes already bounded by ``ServerLimits/maxHeadBytes``.
struct RequestHead: Equatable {
    var method: String
    /// The request target exactly as sent (path and query, still percent-encoded).
    var target: String
    var version: String
    /// Every header line in order, names as sent.
    var headers: [(name: String, value: String)]

    /// Why a head is refused: the status of the answer and its one line.
    struct Refusal: Error, Equatable {
        let status: Int
        let message: String
    }

    static func == (lhs: RequestHead, rhs: RequestHead) -> Bool {
        lhs.method == rhs.method && lhs.target == rhs.target && lhs.version == rhs.version
            && lhs.headers.elementsEqual(rhs.headers) { $0.name == $1.name && $0.value == $1.value }
    }

    /// The value of header `name` (any case); nil when absent.
    func value(of name: String) -> String? {
        headers.first { $0.name.lowercased() == name }?.value
    }

    /// True when the client asked to keep the connection for another request.
    var keepsAlive: Bool {
        let connection = value(of: "connection")?.lowercased() ?? ""
        let tokens = connection.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        if version == "HTTP/1.0" { return tokens.contains("keep-alive") }
        return !tokens.contains("close")
    }

    /// True when the request says a body follows; the inspector reads none, so
    /// such a connection is answered and closed rather than read on.
    var announcesBody: Bool {
        value(of: "transfer-encoding") != nil || (value(of: "content-length").map { $0 != "0" } ?? false)
    }

    /// Parses a head: the bytes up to and including its blank line.
    static func parse(_ bytes: ArraySlice<UInt8>) throws(Refusal) -> RequestHead {
        // Split as bytes: in a String, CR LF is one character.
        var lines: [Substring] = []
        for line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            let text = line.last == UInt8(ascii: "\r") ? line.dropLast() : line
            lines.append(Substring(String(decoding: text, as: UTF8.self)))
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        guard let requestLine = lines.first else { throw Refusal(status: 400, message: "no request line") }
        let parts = requestLine.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty, parts[2].hasPrefix("HTTP/1.") else {
            throw Refusal(status: 400, message: "a request line is METHOD TARGET HTTP/1.1")
        }
        var headers: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":"), colon != line.startIndex,
                  let first = line.first, first != " ", first != "\t" else {
                throw Refusal(status: 400, message: "a header line is NAME: VALUE")
            }
            let name = line[..<colon]
            guard !name.contains(where: { $0 == " " || $0 == "\t" }) else {
                throw Refusal(status: 400, message: "a header name holds no space")
            }
            let value = line[line.index(after: colon)...].trimmingCharacters(in: [" ", "\t"])
            headers.append((String(name), value))
        }
        let head = RequestHead(method: String(parts[0]), target: String(parts[1]), version: String(parts[2]), headers: headers)
        // One Host, one length: a second one would make two readers of the request disagree on it.
        for name in ["host", "content-length"] where headers.count(where: { $0.name.lowercased() == name }) > 1 {
            throw Refusal(status: 400, message: "more than one \(name == "host" ? "Host" : "Content-Length") header")
        }
        if let length = head.value(of: "content-length"), UInt64(length) == nil {
            throw Refusal(status: 400, message: "Content-Length is not a number")
        }
        return head
    }
}

/// The bytes a connection received, scanned once each for the blank line
/// that ends a request head: a head arriving a byte at a time costs what
/// it would cost at once.
package struct RequestHeadBuffer {
    package private(set) var bytes: [UInt8] = []
    /// Bytes already scanned for the end of the head.
    private var scanned = 0
    /// Bytes looked at by ``headLength()`` so far: what the scan costs.
    package private(set) var examined = 0

    package init() {}

    /// True when nothing of a next request has arrived.
    package var isEmpty: Bool { bytes.isEmpty }

    /// Appends received bytes; empty lines before a request line are skipped (RFC 9112 §2.2).
    package mutating func append(_ more: some Collection<UInt8>) {
        bytes.append(contentsOf: more)
        if scanned == 0 {
            let leading = bytes.prefix { $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: "\n") }.count
            if leading > 0 { bytes.removeFirst(leading) }
        }
    }

    /// The length of the head (through its blank line) once it has all arrived.
    package mutating func headLength() -> Int? {
        let newline = UInt8(ascii: "\n"), carriageReturn = UInt8(ascii: "\r")
        var index = max(scanned, 1)
        defer { scanned = max(scanned, bytes.count) }
        while index < bytes.count {
            examined += 1
            if bytes[index] == newline {
                if bytes[index - 1] == newline { return index + 1 }
                if index >= 2, bytes[index - 1] == carriageReturn, bytes[index - 2] == newline { return index + 1 }
            }
            index += 1
        }
        return nil
    }

    /// Removes the head's `length` bytes and returns them; what followed stays for the next request.
    package mutating func takeHead(_ length: Int) -> ArraySlice<UInt8> {
        let head = bytes[..<length]
        bytes = Array(bytes[length...])
        scanned = 0
        append([UInt8]())
        return head
    }
}
