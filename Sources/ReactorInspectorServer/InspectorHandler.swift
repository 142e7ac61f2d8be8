import Dispatch
import FlyingFox
import Foundation

/// Routes every request of the inspector. Read-only and closed by
/// construction: a request is answered only when its method is GET and its
/// raw path (before any decoding) is exactly one of the routes below; any
/// other path is 404, any other method 405. Nothing reaches the file system
/// but the trace being followed.
struct InspectorHandler: HTTPHandler {
    let api: InspectorAPI
    /// The questions that read the trace, with their progress.
    let questions = QuestionBoard()
    /// True when a request must name this machine in its `Host` header
    /// (`localhost` or a loopback address), so that a page of another site
    /// that rebinds its name to this address cannot read the trace; false
    /// when the user chose a non-loopback `--host`.
    let checksHost: Bool

    /// The paths answered, and what answers them.
    enum Route: String, CaseIterable {
        case page = "/"
        case pageByName = "/index.html"
        case script = "/app.js"
        case style = "/app.css"
        case summary = "/api/summary"
        case snapshot = "/api/snapshot"
        case stream = "/api/stream"
        case graph = "/api/graph"
        case why = "/api/why"
        case state = "/api/state"
        case replay = "/api/replay"
        case timeline = "/api/timeline"
        case progress = "/api/progress"
    }

    func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard request.method == .GET else {
            var response = Self.response(InspectorAPI.error(status: 405, "read-only: only GET is answered"))
            response.headers[HTTPHeader("Allow")] = "GET"
            return response
        }
        if checksHost {
            let host = request.headers[.host].map(Self.hostName) ?? ""
            guard host == "localhost" || LoopbackAddress.isLoopback(host) == true else {
                return Self.response(InspectorAPI.error(status: 403, "unexpected Host header: open the address reactor-inspect printed"))
            }
        }
        guard let route = Route(rawValue: request.target.path(percentEncoded: true)) else {
            return Self.response(InspectorAPI.error(status: 404, "no such page"))
        }
        let query = request.query
        do {
            return try await answer(route, query: query)
        } catch {
            return Self.response(InspectorAPI.error(status: 400, error.message))
        }
    }

    /// A query parameter that is not what its endpoint takes.
    struct BadParameter: Error {
        let message: String
    }

    /// The whole number `name` of `query`, held to `range`; `value` when absent or empty.
    static func number(_ name: String, in query: [HTTPRequest.QueryItem], default value: Int?,
                       in range: ClosedRange<Int>) throws(BadParameter) -> Int? {
        guard let text = query[name], !text.isEmpty else { return value }
        guard let number = Int(text) else {
            throw BadParameter(message: "\(name) must be a whole number, not '\(text.prefix(40))'")
        }
        return min(max(number, range.lowerBound), range.upperBound)
    }

    private func answer(_ route: Route, query: [HTTPRequest.QueryItem]) async throws(BadParameter) -> HTTPResponse {
        func number(_ name: String, default value: Int, in range: ClosedRange<Int>) throws(BadParameter) -> Int {
            try Self.number(name, in: query, default: value, in: range) ?? value
        }
        switch route {
        case .page, .pageByName:
            return Self.response(InspectorResponse(status: 200, contentType: "text/html; charset=utf-8",
                                                   body: PageAssets.html))
        case .script:
            return Self.response(InspectorResponse(status: 200, contentType: "text/javascript; charset=utf-8",
                                                   body: PageAssets.script))
        case .style:
            return Self.response(InspectorResponse(status: 200, contentType: "text/css; charset=utf-8",
                                                   body: PageAssets.style))
        case .summary:
            return Self.response(api.summary(top: try number("top", default: 5, in: 0...10_000)))
        case .snapshot:
            return Self.response(api.snapshot())
        case .progress:
            return Self.response(InspectorAPI.json(questions.progress()))
        case .stream:
            var response = HTTPResponse(statusCode: .ok, headers: Self.commonHeaders(contentType: "text/event-stream"),
                                        body: HTTPBodySequence(from: EventStreamBody(messages: api.follower.subscribe())))
            response.headers[HTTPHeader("X-Accel-Buffering")] = "no"
            return response
        case .graph:
            let focus = query["focus"]
            let depth = try number("depth", default: 2, in: 0...20)
            let top = try Self.number("top", in: query, default: nil, in: 1...10_000)
            let at = query["at"].flatMap { $0.isEmpty ? nil : $0 }
            // `layers=` (none expanded) or `layers=1,3` (those drawn node by node).
            let layerText = query["layers"]
            let layerNumbers = layerText.map { $0.split(separator: ",").map { Int($0).flatMap { $0 >= 0 ? $0 : nil } } }
            if let layerText, let layerNumbers, layerNumbers.contains(where: { $0 == nil }) {
                return Self.response(InspectorAPI.error(status: 400, "layers must be numbers separated by commas, not '\(layerText)'"))
            }
            let layers = layerNumbers.map { Set($0.compactMap { $0 }) }
            guard let at else {
                return Self.response(await Self.offloaded(on: Self.graphWork) {
                    api.graph(focus: focus, depth: depth, top: top, at: nil, layers: layers)
                })
            }
            // At a moment: a pass, then the layout, on the graph worker.
            let key = [at, focus ?? "", String(depth), top.map(String.init) ?? "", layerText ?? ""].joined(separator: "\u{0}")
            return Self.response(await ask("graph", subject: at, key: key, on: Self.graphWork) { current in
                api.graph(focus: focus, depth: depth, top: top, at: at, layers: layers, in: current)
            })
        case .why:
            guard let name = query["node"], !name.isEmpty else {
                return Self.response(InspectorAPI.error(status: 400, "name the computation: /api/why?node=NAME"))
            }
            let limit = try number("limit", default: 20, in: 0...1000)
            return Self.response(await ask("why", subject: name, key: "\(name)\u{0}\(limit)", on: Self.whyWork) { _ in
                api.why(name, limit: limit)
            })
        case .state:
            guard let moment = query["at"], !moment.isEmpty else {
                return Self.response(InspectorAPI.error(status: 400, "name the moment: /api/state?at=action:N or at=TIME"))
            }
            let filter = query["filter"].flatMap { $0.isEmpty ? nil : $0 }
            return Self.response(await ask("state", subject: moment, key: "\(moment)\u{0}\(filter ?? "")", on: Self.stateWork) { current in
                api.state(at: moment, filter: filter, in: current)
            })
        case .timeline:
            // Strict: a malformed number is the client's mistake, not a default.
            var window: [String: UInt64] = [:]
            for name in ["from", "to", "width"] {
                guard let text = query[name] else { continue }
                guard let number = UInt64(text) else {
                    return Self.response(InspectorAPI.error(status: 400, "\(name) must be a whole number, not '\(text)'"))
                }
                window[name] = number
            }
            let width = Int(min(max(window["width"] ?? 1000, 1), 20_000))
            let (from, to) = (window["from"], window["to"])
            let span = [from, to].map { $0.map(String.init) ?? "" }
            return Self.response(await ask("timeline", subject: span.joined(separator: "–"),
                                           key: (span + [String(width)]).joined(separator: "\u{0}"), on: Self.timelineWork) { current in
                api.timeline(from: from, to: to, width: width, in: current)
            })
        case .replay:
            let terms = query.filter { $0.name == "filter" && !$0.value.isEmpty }.map(\.value)
            let limit = try number("limit", default: 200, in: 0...5000)
            let text: Bool
            switch query["format"] {
            case nil, "json": text = false
            case "text": text = true
            case let other?: return Self.response(InspectorAPI.error(status: 400, "format must be json or text, not '\(other)'"))
            }
            // Without an index that answers, two passes: the lookahead's, then the lines'.
            return Self.response(await ask("replay", subject: terms.joined(separator: " "),
                                           key: (terms + [String(limit), String(text)]).joined(separator: "\u{0}"),
                                           passes: 2, on: Self.replayWork) { current in
                api.replay(terms: terms, limit: limit, text: text, in: current)
            })
        }
    }

    /// Answers a question that reads the trace on `queue`, through ``questions``
    /// (one pass per question, a few per kind, progress, cancel when every asker
    /// has gone), reading as far as the follower has read: the bytes its
    /// model and index describe. `passes`: how many times the question reads those events.
    private func ask(_ kind: String, subject: String, key: String, passes: Int = 1, on queue: DispatchQueue,
                     _ work: @escaping @Sendable (FollowedTrace) -> InspectorResponse) async -> InspectorResponse {
        let follower = api.follower
        let events = follower.current.index?.events ?? follower.current.model?.eventCount ?? 0
        return await questions.answer(kind: kind, subject: subject, key: key, total: events * passes, on: queue) { pass in
            // What was read when the pass begins: its model, index and bytes, together.
            let current = follower.current
            pass.limit(to: current.model == nil ? nil : current.bytesRead)
            return work(current)
        }
    }

    /// The host name of a `Host` header: `127.0.0.1:8040` → `127.0.0.1`, `[::1]:80` → `::1`.
    static func hostName(_ header: String) -> String {
        if header.hasPrefix("["), let close = header.firstIndex(of: "]") {
            return String(header[header.index(after: header.startIndex)..<close]).lowercased()
        }
        return String(header.split(separator: ":", maxSplits: 1).first ?? "").lowercased()
    }

    /// The headers of every answer: no caching of live data, no sniffing, and
    /// a content security policy that runs only the page's own script (no
    /// inline script, no event-handler attributes), so a name in the data can
    /// never run as code even if it reached the markup.
    static func commonHeaders(contentType: String) -> HTTPHeaders {
        var headers = HTTPHeaders()
        headers[.contentType] = contentType
        headers[.cacheControl] = "no-store"
        headers[HTTPHeader("X-Content-Type-Options")] = "nosniff"
        headers[HTTPHeader("Referrer-Policy")] = "no-referrer"
        headers[HTTPHeader("Content-Security-Policy")] =
            "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
            + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
        return headers
    }

    static func response(_ answer: InspectorResponse) -> HTTPResponse {
        HTTPResponse(statusCode: HTTPStatusCode(answer.status, phrase: phrase(answer.status)),
                     headers: commonHeaders(contentType: answer.contentType), body: Data(answer.body))
    }

    static func phrase(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 400: "Bad Request"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 431: "Request Header Fields Too Large"
        case 499: "Client Closed Request"
        case 503: "Service Unavailable"
        default: "Internal Server Error"
        }
    }

    /// Runs `work` on a thread outside Swift's cooperative pool: a pass over a
    /// large trace or a graph layout must not hold up the event streams.
    static func offloaded(on queue: DispatchQueue,
                          _ work: @escaping @Sendable () -> InspectorResponse) async -> InspectorResponse {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: work()) }
        }
    }

    /// Graph layouts, one at a time, from the model already read.
    private static let graphWork = DispatchQueue(label: "reactor-inspect serve: graphs")
    /// Passes over the trace file, one queue per kind: two passes of a kind
    /// at once would only both be slow, and a long event listing never holds
    /// up an explanation, a state or a redraw.
    private static let whyWork = DispatchQueue(label: "reactor-inspect serve: why")
    private static let stateWork = DispatchQueue(label: "reactor-inspect serve: state")
    private static let replayWork = DispatchQueue(label: "reactor-inspect serve: replay")
    private static let timelineWork = DispatchQueue(label: "reactor-inspect serve: timeline")
}
