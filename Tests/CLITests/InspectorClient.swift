import BuiltProducts
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A running `reactor-inspect serve` and a ``LoopbackHTTP`` client for it.
final class InspectorClient {
    let process: Process
    let port: UInt16
    let errors: FileHandle
    let http: LoopbackHTTP

    /// Starts `serve TRACE --port 0 EXTRA` and reads the address it prints.
    init(trace: String, _ extra: [String] = []) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: try BuiltProducts.path(of: "reactor-inspect"))
        process.arguments = ["serve", trace, "--port", "0"] + extra
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        errors = err.fileHandleForReading
        try process.run()
        let line = BuiltProducts.readLine(out.fileHandleForReading) ?? ""
        guard let range = line.range(of: #"http://127\.0\.0\.1:[0-9]+/"#, options: .regularExpression),
              let port = UInt16(line[range].dropFirst("http://127.0.0.1:".count).dropLast()) else {
            kill(process.processIdentifier, SIGKILL)
            throw LoopbackHTTP.Failure(message: "serve printed no address: \(line)")
        }
        self.port = port
        http = LoopbackHTTP(port: port)
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    typealias Response = LoopbackHTTP.Response

    /// Sends `METHOD TARGET` as written and reads the whole answer.
    func request(_ target: String, method: String = "GET", host: String? = nil) throws -> Response {
        try http.request(target, method: method, host: host)
    }

    func get(_ target: String) throws -> Response { try http.get(target) }

    /// Opens the event stream and returns the socket once the first `update` arrived, with what was read.
    func openStream() throws -> (socket: Int32, received: String) { try http.openStream() }

    /// Opens the event stream for reading its `update` messages one by one.
    func updates() throws -> EventStreamUpdates { try http.updates() }
}
