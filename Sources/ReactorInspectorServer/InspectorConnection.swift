import FlyingFox
import FlyingSocks
import Foundation

/// One client connection of ``InspectorServer``: reads request heads within
/// the ``ServerLimits``, hands each request to the ``InspectorHandler`` and
/// writes its answer, until the client or a limit ends it. The socket is
/// closed when `serve()` returns, whatever ended it (cancellation by the
/// ``ConnectionTable`` included).
struct InspectorConnection {
    let socket: AsyncSocket
    let id: UInt64
    let table: ConnectionTable
    let limits: ServerLimits
    let handler: InspectorHandler

    /// Serves requests until the connection ends, then closes it.
    func serve() async {
        defer {
            try? socket.close()
            table.close(id)
        }
        var received = RequestHeadBuffer()
        do {
            while !Task.isCancelled {
                guard let head = try await readHead(&received) else { return }
                table.enter(.answering, id: id, now: Self.now(), deadline: nil)
                let keepsAlive = head.keepsAlive && !head.announcesBody
                var response: HTTPResponse
                do {
                    response = try await answerWhileConnected(Self.request(head))
                } catch {
                    response = InspectorHandler.response(InspectorAPI.error(status: 500, "\(error)"))
                }
                guard !Task.isCancelled else { return }
                response.headers[.connection] = keepsAlive ? (head.version == "HTTP/1.0" ? "keep-alive" : nil) : "close"
                try await send(response)
                guard keepsAlive else { return }
            }
        } catch {
            // The client left, a write failed or a deadline passed: the connection just ends.
        }
    }

    /// The handler's answer to `request`, cancelled (and with it a pass over
    /// the trace it waits for: ``QuestionBoard``) when the client hangs up
    /// before it is ready or the connection is closed.
    private func answerWhileConnected(_ request: HTTPRequest) async throws -> HTTPResponse {
        let handler = handler
        let answering = Task { try await handler.handleRequest(request) }
        let watching = Task { [socket] in
            if await Self.hangUp(of: socket.socket.file.rawValue) { answering.cancel() }
        }
        defer { watching.cancel() }
        return try await withTaskCancellationHandler {
            try await answering.value
        } onCancel: {
            answering.cancel()
        }
    }

    /// Waits until the client at `descriptor` has closed its side (true), or
    /// until cancelled (false), looking every ``hangUpInterval`` seconds without
    /// taking any byte: bytes of a next request waiting do not count. (A client
    /// that shuts down its sending side after a request is taken as gone: no
    /// browser does.)
    private static func hangUp(of descriptor: Int32) async -> Bool {
        var byte: UInt8 = 0
        while !Task.isCancelled {
            let got = recv(descriptor, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
            if got == 0 { return true }
            if got < 0, errno != EAGAIN, errno != EWOULDBLOCK, errno != EINTR { return true }
            try? await Task.sleep(nanoseconds: UInt64(hangUpInterval * 1e9))
        }
        return false
    }

    /// Seconds between looks for a client that hung up while its answer is made.
    static let hangUpInterval = 0.05

    /// Reads the next request head; nil when the connection ended or was answered with a refusal.
    private func readHead(_ received: inout RequestHeadBuffer) async throws -> RequestHead? {
        let now = Self.now()
        if received.isEmpty {
            table.enter(.idle, id: id, now: now, deadline: now + Self.nanoseconds(limits.idleTimeout))
        } else {
            table.enter(.head, id: id, now: now, deadline: now + Self.nanoseconds(limits.headTimeout))
        }
        while true {
            if let length = received.headLength() {
                guard length <= limits.maxHeadBytes else { break }
                do {
                    return try RequestHead.parse(received.takeHead(length))
                } catch {
                    try await refuse(status: error.status, error.message)
                    return nil
                }
            }
            guard received.bytes.count <= limits.maxHeadBytes else { break }
            let wasEmpty = received.isEmpty
            received.append(try await socket.read(atMost: 4096))
            if wasEmpty, !received.isEmpty {
                let now = Self.now()
                table.enter(.head, id: id, now: now, deadline: now + Self.nanoseconds(limits.headTimeout))
            }
        }
        try await refuse(status: 431, "the request line and headers are longer than \(limits.maxHeadBytes) bytes")
        return nil
    }

    /// Answers `status` with `message` and closes: stops sending, then reads
    /// and drops what the client still sends for a moment (at most 1 MB), so
    /// that it can read the answer before the connection is reset.
    func refuse(status: Int, _ message: String) async throws {
        var response = InspectorHandler.response(InspectorAPI.error(status: status, message))
        response.headers[.connection] = "close"
        try await send(response)
        shutdown(socket.socket.file.rawValue, Int32(SHUT_WR))
        let now = Self.now()
        table.enter(.writing, id: id, now: now, deadline: now + Self.nanoseconds(min(1, limits.writeTimeout)))
        var drained = 0
        while drained < 1 << 20 {
            drained += try await socket.read(atMost: 4096).count
        }
    }

    /// Writes the head and body of `response`: a body of unknown length is
    /// already chunk-encoded by its sequence, and is an event stream.
    private func send(_ response: HTTPResponse) async throws {
        guard case let .httpBody(body) = response.payload else { return }
        var headers = response.headers
        if let count = body.count {
            headers[.contentLength] = String(count)
        } else {
            headers[.transferEncoding] = "chunked"
        }
        var head = "HTTP/1.1 \(response.statusCode.code) \(response.statusCode.phrase)\r\n"
        for (name, value) in headers.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            head += "\(name.rawValue): \(value)\r\n"
        }
        head += "\r\n"
        // Between writes an event stream waits for its next message, with no deadline (it writes a heartbeat).
        let between: ConnectionTable.Phase = body.count == nil ? .streaming : .answering
        try await write(Data(head.utf8), then: between)
        for try await chunk in body {
            try await write(chunk, then: between)
        }
    }

    /// Writes `data` within the write timeout, then moves to `next`.
    private func write(_ data: Data, then next: ConnectionTable.Phase = .answering) async throws {
        let now = Self.now()
        table.enter(.writing, id: id, now: now, deadline: now + Self.nanoseconds(limits.writeTimeout))
        try await socket.write(data)
        table.enter(next, id: id, now: Self.now(), deadline: nil)
    }

    /// The handler's view of a head: FlyingFox's request type, with no body.
    static func request(_ head: RequestHead) -> HTTPRequest {
        var headers = HTTPHeaders()
        for (name, value) in head.headers { headers.addValue(value, for: HTTPHeader(name)) }
        let parts = head.target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        return HTTPRequest(method: HTTPMethod(head.method), version: HTTPVersion(head.version),
                           target: HTTPRequest.Target(path: String(parts.first ?? ""), query: parts.count > 1 ? String(parts[1]) : ""),
                           headers: headers, body: HTTPBodySequence())
    }

    static func now() -> UInt64 { TraceFollower.now() }

    static func nanoseconds(_ seconds: Double) -> UInt64 { UInt64(max(0, seconds) * 1e9) }
}
