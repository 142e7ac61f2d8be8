import BuiltProducts
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import ReactorInspectorServer
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Socket helpers for the limit tests: bytes out as written, and whether and
/// when the server closed the connection.
enum RawClient {
    static func send(_ socket: Int32, _ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { return false }
            sent += count
        }
        return true
    }

    /// Everything the server sends until it closes, or nil if it has not closed within `seconds`.
    static func readUntilClosed(_ socket: Int32, within seconds: Double) -> [UInt8]? {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while ContinuousClock.now < deadline {
            var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 50) > 0 else { continue }
            let count = recv(socket, &buffer, buffer.count, 0)
            if count <= 0 { return received }
            received += buffer[0..<count]
        }
        return nil
    }

    /// True when the server has closed `socket` (end of file waiting, nothing else).
    static func isClosed(_ socket: Int32) -> Bool {
        var byte: UInt8 = 0
        return recv(socket, &byte, 1, Int32(MSG_DONTWAIT | MSG_PEEK)) == 0
    }

    /// The status of an HTTP answer's first line.
    static func status(_ bytes: [UInt8]) -> Int? {
        let line = String(decoding: bytes.prefix(64), as: UTF8.self).split(separator: " ")
        return line.count > 1 ? Int(line[1]) : nil
    }
}

/// `serve` against clients that hold on to it: too many connections, heads
/// too long or too slow, silence, more connections than file descriptors.
@Suite(.serialized) struct ServeLimitsTests {
    /// `serve` with limits small enough for bounded tests.
    static func serve(_ trace: String, maxConnections: Int = 8, idleTimeout: Double = 0.4,
                      headTimeout: Double = 0.6) throws -> InspectorClient {
        try InspectorClient(trace: trace, ["--max-connections", "\(maxConnections)", "--idle-timeout", "\(idleTimeout)",
                                           "--head-timeout", "\(headTimeout)"])
    }

    @Test func aHeadLongerThanTheLimitIs431AndClosed() throws {
        let trace = try SampleTrace.todos.get()
        let inspector = try Self.serve(trace.path)
        let socket = try inspector.http.connect()
        defer { close(socket) }
        // A 64 KB header line without an end: refused after the limit, not read to its end.
        _ = RawClient.send(socket, Array("GET / HTTP/1.1\r\nX-Long: ".utf8) + [UInt8](repeating: UInt8(ascii: "a"), count: 64 * 1024))
        let answer = try #require(RawClient.readUntilClosed(socket, within: 5), "the connection stayed open")
        #expect(RawClient.status(answer) == 431)
        #expect(try inspector.http.get("/api/summary").status == 200)
    }

    @Test func aHeadArrivingAByteAtATimeIsScannedOnce() {
        var buffer = RequestHeadBuffer()
        let head = Array("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Long: ".utf8) + [UInt8](repeating: 65, count: 20_000) + Array("\r\n\r\n".utf8)
        var found: Int?
        for byte in head where found == nil {
            buffer.append([byte])
            found = buffer.headLength()
        }
        #expect(found == head.count)
        // Each byte looked at once (and the three before it at most once more per append).
        #expect(buffer.examined <= head.count * 2)
    }

    @Test func aSilentConnectionIsClosedAfterTheIdleTimeout() throws {
        let trace = try SampleTrace.todos.get()
        let inspector = try Self.serve(trace.path)
        let socket = try inspector.http.connect()
        defer { close(socket) }
        let answer = try #require(RawClient.readUntilClosed(socket, within: 5), "an idle connection stayed open")
        #expect(answer.isEmpty)
    }

    @Test func aHeadSentSlowlyIsClosedAfterTheHeadTimeout() throws {
        let trace = try SampleTrace.todos.get()
        let inspector = try Self.serve(trace.path)
        let socket = try inspector.http.connect()
        defer { close(socket) }
        // One header byte every 100 ms, each well within the idle timeout: only the head's deadline ends it.
        var sent = 0
        _ = RawClient.send(socket, Array("GET / HTTP/1.1\r\n".utf8))
        while sent < 60, RawClient.send(socket, [UInt8(ascii: "x")]) {
            sent += 1
            if RawClient.isClosed(socket) { break }
            usleep(100_000)
        }
        #expect(RawClient.isClosed(socket), "the slow head was still being read after \(sent) bytes")
        #expect(sent < 40)
    }

    @Test func pastTheCapTheLongestWaitingConnectionMakesRoom() throws {
        let trace = try SampleTrace.todos.get()
        let inspector = try Self.serve(trace.path, idleTimeout: 30, headTimeout: 30)
        let idle = try (0..<40).map { _ in try inspector.http.connect() }
        defer { for socket in idle { close(socket) } }
        // Each request is still answered, however many idle connections came first…
        for _ in 0..<3 {
            #expect(try inspector.http.get("/api/summary").status == 200)
        }
        usleep(200_000)
        // …and the server holds no more than its cap of them.
        let open = idle.filter { !RawClient.isClosed($0) }.count
        #expect(open <= 8)
        #expect(open > 0)
    }

    @Test func whenEveryConnectionIsBusyANewOneGets503() throws {
        let trace = try SampleTrace.todos.get()
        let inspector = try Self.serve(trace.path)
        let streams = try (0..<8).map { _ in try inspector.http.openStream() }
        defer { for stream in streams { close(stream.socket) } }
        let answer = try inspector.http.get("/api/summary")
        #expect(answer.status == 503)
        #expect(answer.text.contains("too many connections"))
    }

    @Test func twoHostHeadersAre400() throws {
        let trace = try SampleTrace.todos.get()
        let inspector = try InspectorClient(trace: trace.path)
        let socket = try inspector.http.connect()
        defer { close(socket) }
        let port = inspector.http.port
        _ = RawClient.send(socket, Array("GET /api/summary HTTP/1.1\r\nHost: evil.example\r\nHost: 127.0.0.1:\(port)\r\n\r\n".utf8))
        let answer = try #require(RawClient.readUntilClosed(socket, within: 5))
        #expect(RawClient.status(answer) == 400)
    }

    @Test(arguments: ["/api/summary?top=abc", "/api/summary?top=1e3", "/api/graph?depth=two", "/api/graph?top=-x",
                      "/api/why?node=x&limit=ten", "/api/replay?limit=%20"])
    func aMalformedNumberIs400(target: String) throws {
        let trace = try SampleTrace.todos.get()
        let inspector = try InspectorClient(trace: trace.path)
        let answer = try inspector.http.get(target)
        #expect(answer.status == 400, "\(target): \(answer.text)")
        #expect(try answer.json()["error"] as? String != nil)
    }

    @Test func outOfFileDescriptorsIsToldOnceAndSurvived() throws {
        let prlimit = "/usr/bin/prlimit"
        try #require(FileManager.default.isExecutableFile(atPath: prlimit), "util-linux prlimit")
        let trace = try SampleTrace.todos.get()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: prlimit)
        process.arguments = ["--nofile=48:48", try BuiltProducts.path(of: "reactor-inspect"), "serve", trace.path, "--port", "0"]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() } }
        let line = BuiltProducts.readLine(out.fileHandleForReading) ?? ""
        let port = try #require(line.split(separator: ":").last.flatMap { UInt16($0.prefix { $0.isNumber }) }, "\(line)")
        let http = LoopbackHTTP(port: port)
        // Twice the descriptors the process has, all idle.
        let idle = try (0..<96).map { _ in try http.connect() }
        defer { for socket in idle { close(socket) } }
        for _ in 0..<3 {
            #expect(try http.get("/api/summary").status == 200)
        }
        #expect(process.isRunning)
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let lines = errors.split(separator: "\n")
        #expect(lines.count == 1, "\(errors)")
        #expect(errors.contains("file descriptors"))
    }
}

/// The page's SVG sanitiser keeps the static elements Graphviz draws and
/// nothing else: no script, no animation (`<set>` and `<animate>` can rewrite
/// an attribute such as `href` after the sanitiser looked), no foreign content.
@Suite struct PageSanitiserTests {
    /// The element names the script keeps (its `svgElements` list).
    static func keptElements(in script: String) throws -> Set<String> {
        let range = try #require(script.range(of: #"const svgElements = new Set\(\[[^\]]*\]\)"#, options: .regularExpression),
                                 "the script names the elements it keeps")
        let list = script[range].split(separator: "[", maxSplits: 1)[1]
        return Set(list.split(separator: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " \n\"])")) })
    }

    @Test func onlyTheElementsGraphvizDrawsAreKept() throws {
        let trace = try SampleTrace.stress.get()
        let inspector = try InspectorClient(trace: trace.path)
        let script = try inspector.http.get("/app.js").text
        let kept = try Self.keptElements(in: script)
        // Everything else is removed, with what it holds.
        #expect(script.contains("if (!svgElements.has(node.localName)) { node.remove(); continue; }"))
        for active in ["set", "animate", "animateMotion", "animateTransform", "animateColor", "mpath", "discard", "script",
                       "foreignObject", "iframe", "object", "embed", "handler", "listener", "use", "image", "feImage",
                       "style", "audio", "video"] {
            #expect(!kept.contains(active), "the sanitiser keeps <\(active)>")
        }
        // And the graph loses nothing: every element of a real graph's SVG is kept.
        for target in ["/api/graph", "/api/graph?top=5", "/api/graph?focus=effect0&depth=1", "/api/graph?layers=", "/api/graph?layers=0,1"] {
            let answer = try inspector.http.get(target)
            #expect(answer.status == 200, "\(target): \(answer.text.prefix(200))")
            let svg = try #require(try answer.json()["svg"] as? String)
            let document = try XMLDocument(xmlString: svg)
            let names = Set(try document.nodes(forXPath: "//*").compactMap { ($0 as? XMLElement)?.localName })
            #expect(!names.isEmpty)
            #expect(names.subtracting(kept).isEmpty, "\(target) draws \(names.subtracting(kept).sorted()) that the page drops")
        }
    }
}
