import ReactorCore
import Dispatch
import FlyingFox
import FlyingSocks
import Foundation
import Synchronization

/// `reactor-inspect serve`'s web server: the page, its assets and the JSON
/// API over one ``TraceFollower``. Sockets and their readiness are
/// FlyingSocks' (FlyingFox's socket layer, an epoll/kqueue pool under Swift
/// concurrency) and requests and answers FlyingFox's types; the accept loop
/// and the reading of request heads are its own, so that no client can hold
/// more than ``ServerLimits`` allow: a bounded head read in one pass, idle,
/// head and write deadlines, a cap on connections, and `accept` failures
/// (out of file descriptors) that close the longest-waiting connection and
/// back off rather than end the server.
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

    /// The address asked for.
    package let host: String
    /// The port asked for.
    package let port: UInt16
    /// What each client may hold.
    package let limits: ServerLimits

    private let address: any SocketAddress
    private let handler: InspectorHandler
    private let connections = ConnectionTable()
    private let running = LockedValue<Running?>(nil)
    private let stopped = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)

    /// The tasks of a running server, cancelled by ``stop()``.
    private struct Running {
        var listener: Socket
        var tasks: [Task<Void, Never>]
    }

    /// A server for `follower` on `host` (an IP address) and `port` (0: any free port); `answersFromIndex`
    /// lets `why` answer from the index beside a finished trace (``InspectorAPI/answersFromIndex``).
    package init(follower: TraceFollower, host: String, port: UInt16, limits: ServerLimits = ServerLimits(),
                 answersFromIndex: Bool = true) throws(StartError) {
        self.host = host
        self.port = port
        self.limits = limits
        guard let loopback = LoopbackAddress.isLoopback(host) else { throw .badHost(host) }
        do {
            address = host.contains(":") ? try sockaddr_in6.inet6(ip6: host, port: port) : try sockaddr_in.inet(ip4: host, port: port)
        } catch {
            throw .badHost(host)
        }
        handler = InspectorHandler(api: InspectorAPI(follower: follower, answersFromIndex: answersFromIndex),
                                   checksHost: loopback)
    }

    /// True for 127.0.0.0/8, ::1 and their IPv4-mapped forms (::ffff:127.x.x.x): only this machine can connect.
    package static func isLoopback(_ host: String) -> Bool {
        LoopbackAddress.isLoopback(host) == true
    }

    /// Binds, calls `listening` with the page's address, then serves until
    /// ``stop()``. `notice` gets one line the first time the process runs out
    /// of file descriptors (the server goes on). Returns why serving ended.
    package func run(listening: @escaping @Sendable (String) -> Void,
                     notice: @escaping @Sendable (String) -> Void = { _ in }) -> StartError {
        Self.raiseDescriptorLimit(toward: limits.maxConnections + 256)
        let listener: Socket
        do {
            listener = try Socket(domain: Int32(type(of: address).family))
            try listener.setValue(true, for: .localAddressReuse)
            #if canImport(Darwin)
            try listener.setValue(true, for: .noSIGPIPE)  // inherited by accepted sockets; Linux sends with MSG_NOSIGNAL
            #endif
            try listener.bind(to: address)
            try listener.listen()
        } catch {
            return .cannotListen(host: host, port: port, reason: Self.reason(error))
        }
        let pool: some AsyncSocketPool = SocketPool.make()
        let started = DispatchSemaphore(value: 0)
        let failure = LockedValue<String?>(nil)
        let poolTask = Task {
            do {
                try await pool.prepare()
                started.signal()
                try await pool.run()
            } catch {
                failure.withLock { $0 = $0 ?? Self.reason(error) }
                started.signal()
            }
        }
        started.wait()
        guard failure.withLock({ $0 }) == nil, let socket = try? AsyncSocket(socket: listener, pool: pool) else {
            poolTask.cancel()
            try? listener.close()
            return .cannotListen(host: host, port: port, reason: failure.withLock { $0 } ?? "the socket pool did not start")
        }
        let acceptTask = Task { await accept(on: socket, notice: notice) }
        let sweepTask = Task { await sweep() }
        running.withLock { $0 = Running(listener: listener, tasks: [poolTask, acceptTask, sweepTask]) }
        if stopped.load(ordering: .acquiring) { shutDown() }
        if let name = try? listener.sockname() {
            switch name {
            case let .ip4(ip, port): listening("http://\(ip):\(port)/")
            case let .ip6(ip, port): listening("http://[\(ip)]:\(port)/")
            case .unix: break
            }
        }
        finished.wait()
        return .cannotListen(host: host, port: port, reason: failure.withLock { $0 } ?? "the server stopped")
    }

    /// Stops listening and closes every connection; ``run(listening:notice:)`` then returns.
    package func stop() async {
        stopped.store(true, ordering: .releasing)
        shutDown()
    }

    private func shutDown() {
        guard let current = running.withLock({ running -> Running? in defer { running = nil }; return running }) else { return }
        for task in current.tasks { task.cancel() }
        connections.closeAll()
        try? current.listener.close()
        finished.signal()
    }

    /// Accepts connections until cancelled, never holding more than the cap:
    /// past it, the connections that have waited longest for a request are
    /// closed (an eighth of the cap at once, so a flood of idle connections
    /// drains fast) and their sockets awaited before the next one is taken;
    /// when all are busy, the new one is answered 503. The cap is held below the process's limit on open files,
    /// with room to spare: the process never runs out of descriptors because of
    /// its clients (libdispatch cannot survive that). Should `accept` fail for
    /// want of descriptors all the same, the cap is lowered, the longest-waiting
    /// connections closed, and accepting resumes after a pause that grows while
    /// nothing can be freed. No failure of `accept` ends the server.
    private func accept(on listener: AsyncSocket, notice: @Sendable (String) -> Void) async {
        let budget = Self.descriptorBudget()
        var cap = max(1, min(limits.maxConnections, budget.connections))
        var pause = 0.005
        var told = false
        while !Task.isCancelled {
            do {
                let client = try await listener.accept()
                pause = 0.005
                let now = TraceFollower.now()
                let id = connections.open(now: now, deadline: now + InspectorConnection.nanoseconds(limits.idleTimeout))
                var busy = false
                if connections.count > cap {
                    if !told, cap < limits.maxConnections {
                        told = true
                        notice("\(cap) connections open, as many as \(budget.limit) file descriptors allow (ulimit -n): "
                               + "the longest-waiting ones are closed to make room")
                    }
                    busy = connections.closeLongestWaiting(upTo: max(1, cap / 8), sparing: id) == 0
                }
                serve(client, id: id, refusing: busy, cap: cap)
                // The closed ones close their sockets on their own tasks: a moment for that before the next.
                var waited = 0
                while connections.count > cap, waited < 200, !Task.isCancelled {
                    try? await Task.sleep(nanoseconds: 1_000_000)
                    waited += 1
                }
            } catch is CancellationError {
                return
            } catch {
                guard !Task.isCancelled else { return }
                if case let SocketError.failed(_, code, _) = error, [EMFILE, ENFILE, ENOBUFS, ENOMEM].contains(code) {
                    let open = connections.count
                    cap = max(1, min(cap, open - 8))
                    if !told {
                        told = true
                        notice("out of file descriptors with \(open) connections open: closing the longest-waiting ones "
                               + "and holding at most \(cap) (raise `ulimit -n` for more)")
                    }
                    if connections.closeLongestWaiting(upTo: max(1, cap / 8)) > 0 { pause = 0.005 } else { pause = min(pause * 2, 0.5) }
                }
                // Other failures (a client that reset before it was accepted…) concern one connection only.
                try? await Task.sleep(nanoseconds: UInt64(pause * 1e9))
            }
        }
    }

    /// Serves `client` (registered as `id`) on a task of its own, or, `refusing`, answers it 503.
    private func serve(_ client: AsyncSocket, id: UInt64, refusing: Bool, cap: Int) {
        let connection = InspectorConnection(socket: client, id: id, table: connections, limits: limits, handler: handler)
        let task = Task {
            if refusing {
                try? await connection.refuse(status: 503, "too many connections: \(cap) are busy")
                try? client.close()
                connections.close(id)
            } else {
                await connection.serve()
            }
        }
        connections.attach(task, to: id)
    }

    /// Descriptors kept free of connections: the trace's passes, Graphviz,
    /// libdispatch's and the runtime's own files.
    private static let reservedDescriptors = 32

    /// The process's limit on open files, and how many connections fit under it
    /// beside what is open now and ``reservedDescriptors``.
    private static func descriptorBudget() -> (limit: Int, connections: Int) {
        var limit = rlimit()
        guard getrlimit(RLIMIT_NOFILE_VALUE, &limit) == 0 else { return (0, Int.max) }
        let soft = limit.rlim_cur > rlim_t(Int32.max) ? Int(Int32.max) : Int(limit.rlim_cur)
        let directory = FileManager.default.fileExists(atPath: "/proc/self/fd") ? "/proc/self/fd" : "/dev/fd"
        let open = (try? FileManager.default.contentsOfDirectory(atPath: directory).count) ?? 64
        return (soft, soft - open - reservedDescriptors)
    }

    /// Closes the connections past their deadline, a few times per shortest timeout.
    private func sweep() async {
        let interval = UInt64(limits.sweepInterval * 1e9)
        while !Task.isCancelled {
            try? await Task.sleep(nanoseconds: interval)
            connections.closeExpired(now: TraceFollower.now())
        }
    }

    /// Raises the soft limit on open files toward `wanted`, as far as the hard limit allows.
    private static func raiseDescriptorLimit(toward wanted: Int) {
        var limit = rlimit()
        guard getrlimit(RLIMIT_NOFILE_VALUE, &limit) == 0, limit.rlim_cur < rlim_t(wanted) else { return }
        limit.rlim_cur = min(rlim_t(wanted), limit.rlim_max)
        setrlimit(RLIMIT_NOFILE_VALUE, &limit)
    }

    private static func reason(_ error: any Error) -> String {
        if let socket = error as? SocketError, case let .failed(_, errno, message) = socket {
            return errno == EADDRINUSE ? "the port is in use" : message
        }
        return "\(error)"
    }
}

#if canImport(Glibc)
private let RLIMIT_NOFILE_VALUE = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
#else
private let RLIMIT_NOFILE_VALUE = RLIMIT_NOFILE
#endif
