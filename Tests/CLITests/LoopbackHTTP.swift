import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A plain-socket HTTP client for a server on 127.0.0.1: requests go out byte
/// for byte as written (no URL library normalises `..` or percent escapes
/// away), which the path-safety tests need.
struct LoopbackHTTP: Sendable {
    let port: UInt16
    /// The IPv4 address connected to (the server's `--host`).
    var address = "127.0.0.1"

    struct Failure: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }

    struct Response {
        let status: Int
        let headers: [String: String]
        let body: Data
        var text: String { String(decoding: body, as: UTF8.self) }
        func json() throws -> [String: Any] {
            guard let object = try JSONSerialization.jsonObject(with: body) as? [String: Any] else {
                throw Failure(message: "not a JSON object: \(text.prefix(200))")
            }
            return object
        }
    }

    /// Sends `METHOD TARGET` as written and reads the whole answer (the server closes after it).
    func request(_ target: String, method: String = "GET", host: String? = nil) throws -> Response {
        let socket = try connect()
        defer { close(socket) }
        let request = "\(method) \(target) HTTP/1.1\r\nHost: \(host ?? "\(address):\(port)")\r\nConnection: close\r\n\r\n"
        try send(socket, request)
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = recv(socket, &buffer, buffer.count, 0)
            if count <= 0 { break }
            data.append(contentsOf: buffer[0..<count])
        }
        return try Self.parse(data)
    }

    func get(_ target: String) throws -> Response { try request(target) }

    /// Opens the event stream and returns the socket once the first `update` arrived, with what was read.
    func openStream() throws -> (socket: Int32, received: String) {
        let socket = try connect()
        try send(socket, "GET /api/stream HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
        var text = ""
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while !text.contains("event: update") || !text.contains("\n\n") {
            let count = recv(socket, &buffer, buffer.count, 0)
            guard count > 0 else { close(socket); throw Failure(message: "the stream ended: \(text)") }
            text += String(decoding: buffer[0..<count], as: UTF8.self)
        }
        return (socket, text)
    }

    /// Opens the event stream for reading its `update` messages one by one.
    func updates() throws -> EventStreamUpdates {
        let (socket, received) = try openStream()
        return EventStreamUpdates(socket: socket, received: received)
    }

    /// A connected socket (its reads time out after 30 s).
    func connect() throws -> Int32 {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw Failure(message: "socket() failed") }
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr(self.address)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { close(socket); throw Failure(message: "cannot connect to port \(port)") }
        return socket
    }

    func send(_ socket: Int32, _ text: String) throws {
        let bytes = Array(text.utf8)
        guard Glibc.send(socket, bytes, bytes.count, Int32(MSG_NOSIGNAL)) == bytes.count else {
            throw Failure(message: "send failed")
        }
    }

    /// Status line, headers, and a body of Content-Length bytes or chunks.
    static func parse(_ data: Data) throws -> Response {
        guard let split = data.range(of: Data("\r\n\r\n".utf8)) else { throw Failure(message: "no HTTP answer") }
        let head = String(decoding: data[..<split.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let parts = head.first?.split(separator: " ") ?? []
        guard parts.count >= 2, let status = Int(parts[1]) else { throw Failure(message: "bad status line: \(head.first ?? "")") }
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var body = Data(data[split.upperBound...])
        if headers["transfer-encoding"] == "chunked" {
            var chunks = Array(body)
            body = Data(takeWholeChunks(from: &chunks))
        }
        return Response(status: status, headers: headers, body: body)
    }

    /// Removes each whole chunk of a chunked body from the front of `raw`
    /// (hex size, CRLF, bytes, CRLF; the last one, of size 0, included) and
    /// returns their bytes; a chunk not wholly received stays in `raw`.
    static func takeWholeChunks(from raw: inout [UInt8]) -> [UInt8] {
        let crlf: [UInt8] = [13, 10]
        var decoded: [UInt8] = []
        while let lineEnd = raw.firstRange(of: crlf),
              let size = Int(String(decoding: raw[..<lineEnd.lowerBound], as: UTF8.self), radix: 16),
              raw.count >= lineEnd.upperBound + size + 2 {
            decoded += raw[lineEnd.upperBound..<lineEnd.upperBound + size]
            raw.removeFirst(lineEnd.upperBound + size + 2)
        }
        return decoded
    }
}

/// The `update` messages of an open event stream, in order: the chunked body
/// decoded, comments (the heartbeat) skipped, each message's data parsed.
final class EventStreamUpdates {
    let socket: Int32
    /// Received bytes of the chunked body not decoded yet.
    private var raw: [UInt8]
    /// Decoded text not yet returned as a message.
    private var text = ""

    /// Reads on from what `openStream` received (the answer's head, then the first message).
    init(socket: Int32, received: String) {
        self.socket = socket
        let body = received.range(of: "\r\n\r\n").map { received[$0.upperBound...] } ?? ""
        raw = Array(body.utf8)
        decodeChunks()
    }

    deinit { close(socket) }

    /// The next `update` message's data (the first is the state the stream opened at).
    /// Throws if none comes before `deadline`: a guard against a hang, not a measure of speed.
    func next(before deadline: ContinuousClock.Instant) throws -> [String: Any] {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            while let end = text.range(of: "\n\n") {
                let message = text[..<end.lowerBound]
                text.removeSubrange(..<end.upperBound)
                guard message.hasPrefix("event: update"),
                      let line = message.split(separator: "\n").first(where: { $0.hasPrefix("data: ") }) else { continue }
                let object = try JSONSerialization.jsonObject(with: Data(line.dropFirst("data: ".count).utf8))
                guard let update = object as? [String: Any] else {
                    throw LoopbackHTTP.Failure(message: "an update that is not a JSON object: \(line.prefix(200))")
                }
                return update
            }
            guard ContinuousClock.now < deadline else { throw LoopbackHTTP.Failure(message: "no update came: \(text)") }
            let count = recv(socket, &buffer, buffer.count, 0)
            if count < 0, errno == EAGAIN || errno == EINTR { continue }  // the receive timeout: check the deadline
            guard count > 0 else { throw LoopbackHTTP.Failure(message: "the stream ended: \(text)") }
            raw += buffer[0..<count]
            decodeChunks()
        }
    }

    /// Moves each whole chunk of `raw` into `text`.
    private func decodeChunks() {
        text += String(decoding: LoopbackHTTP.takeWholeChunks(from: &raw), as: UTF8.self)
    }
}
