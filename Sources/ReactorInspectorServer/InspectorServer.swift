import Dispatch
import FlyingFox
import FlyingSocks
import Foundation
import Synchronization

/// `reactor-inspect serve`'s web server: the page, its assets and the JSON
/// API over one ``TraceFollower``, on FlyingFox (a small server on plain
/// sockets and Swift concurrency).
package final class InspectorServer: Sendable {
    /// Why serving could not start.
    package enum StartError: Error, CustomStringConvertible {
        /// `--host` is not an IP address.
        case badHost(String)
        /// The address could not be bound (in use, not local…).
        case cannotListen(host: String, port: UInt16, reason: String)

        package var description: String {
            switch self {
            case let .badHost(host): "--host must be an IPv4 or IPv6 address, not '\(host)'"
            case let .cannotListen(host, port, reason): "cannot listen on \(host) port \(port): \(reason)"
            }
        }
    }

    private let server: HTTPServer
    /// The address asked for.
    package let host: String
    /// The port asked for.
    package let port: UInt16

    /// A server for `follower` on `host` (an IP address) and `port` (0: any free port).
    package init(follower: TraceFollower, host: String, port: UInt16) throws(StartError) {
        self.host = host
        self.port = port
        let isIPv6 = host.contains(":")
        let address: any SocketAddress
        do {
            address = isIPv6 ? try sockaddr_in6.inet6(ip6: host, port: port) : try sockaddr_in.inet(ip4: host, port: port)
        } catch {
            throw .badHost(host)
        }
        let handler = InspectorHandler(api: InspectorAPI(follower: follower),
                                       allowedHosts: Self.isLoopback(host) ? ["127.0.0.1", "localhost", "::1"] : nil)
        server = HTTPServer(address: address, timeout: 60, logger: .disabled, handler: handler)
    }

    /// True for 127.0.0.0/8 and ::1: only this machine can connect.
    package static func isLoopback(_ host: String) -> Bool {
        host == "::1" || host.hasPrefix("127.")
    }

    /// Binds, calls `listening` with the page's address, then serves until the
    /// process ends or ``stop()``. Returns why serving ended.
    package func run(listening: @escaping @Sendable (String) -> Void) -> StartError {
        let done = DispatchSemaphore(value: 0)
        let failure = FailureBox()
        let host = host, port = port
        Task { [server] in
            do {
                try await server.run()
            } catch {
                failure.set(Self.reason(error))
            }
            done.signal()
        }
        Task { [server] in
            guard (try? await server.waitUntilListening(timeout: 10)) != nil,
                  let address = await server.listeningAddress else { return }
            switch address {
            case let .ip4(ip, port): listening("http://\(ip):\(port)/")
            case let .ip6(ip, port): listening("http://[\(ip)]:\(port)/")
            case .unix: break
            }
        }
        done.wait()
        return .cannotListen(host: host, port: port, reason: failure.value ?? "the server stopped")
    }

    /// Stops listening and closes every connection; ``run(listening:)`` then returns.
    package func stop() async {
        await server.stop(timeout: 1)
    }

    private static func reason(_ error: any Error) -> String {
        if let socket = error as? SocketError, case let .failed(_, errno, message) = socket {
            return errno == EADDRINUSE ? "the port is in use" : message
        }
        return "\(error)"
    }
}

/// The error of the server task, set once and read after it ended.
private final class FailureBox: Sendable {
    private let stored = Mutex<String?>(nil)
    var value: String? { stored.withLock { $0 } }
    func set(_ text: String) { stored.withLock { $0 = text } }
}
