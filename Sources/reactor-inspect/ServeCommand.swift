import ArgumentParser
import Foundation
import ReactorInspector
import ReactorInspectorServer

/// `reactor-inspect serve TRACE [--port N] [--host H] [--open]`.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "A local web inspector that updates while the app records: graph, hot table, actions and state, events.",
        discussion: """
            Serves a page on http://127.0.0.1:PORT/ (only this machine can reach it unless
            --host says otherwise). It follows the trace as it grows and pushes each
            update to the page: the dependency graph (click a node for why it ran), the
            hot table, the actions (click one for the state after it) and the event stream
            with replay's filters. Read-only; the page and its script are built in and
            work offline. The endpoints are listed in docs/SERVE.md. A trace that does not
            exist yet is waited for; Ctrl-C stops the server.

            Examples:
              stress --loop --trace out/live.trace &
              reactor-inspect serve out/live.trace
              reactor-inspect serve out/todos.trace --port 0 --open

            No client can hold it: request heads are limited to 16 KiB (431), silent and
            slow connections are closed (--idle-timeout, --head-timeout), at most
            --max-connections are held, and running out of file descriptors is told once
            and survived.
            """
    )

    @OptionGroup var trace: TraceArgument

    @Option(help: "The port to listen on (0: any free port).")
    var port: Int = 7340

    @Option(help: ArgumentHelp("The address to listen on: an IPv4 or IPv6 address. Anything but loopback lets other machines read the trace.", valueName: "address"))
    var host = "127.0.0.1"

    @Flag(help: "Open the page in a browser: $BROWSER (a program's path) if set, else xdg-open or open.")
    var open = false

    @Option(help: "Connections held at once; past it the one that waited longest for a request is closed.")
    var maxConnections = ServerLimits().maxConnections

    @Option(help: ArgumentHelp("Seconds a connection may stay silent before its next request.", valueName: "seconds"))
    var idleTimeout = ServerLimits().idleTimeout

    @Option(help: ArgumentHelp("Seconds from a request's first byte to the end of its headers.", valueName: "seconds"))
    var headTimeout = ServerLimits().headTimeout

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be between 0 and 65535") }
        guard (1...100_000).contains(maxConnections) else { throw ValidationError("--max-connections must be between 1 and 100000") }
        guard (0.1...3600).contains(idleTimeout) else { throw ValidationError("--idle-timeout must be between 0.1 and 3600 seconds") }
        guard (0.1...3600).contains(headTimeout) else { throw ValidationError("--head-timeout must be between 0.1 and 3600 seconds") }
    }

    func run() throws {
        Self.exitOnInterrupt()
        let follower = TraceFollower(path: trace.path)
        do {
            try follower.readFirst()
        } catch {
            throw ValidationError(error.description)
        }
        let server: InspectorServer
        do {
            let limits = ServerLimits(maxConnections: maxConnections, idleTimeout: idleTimeout, headTimeout: headTimeout)
            server = try InspectorServer(follower: follower, host: host, port: UInt16(port), limits: limits,
                                         answersFromIndex: !trace.noIndex)
        } catch {
            throw ValidationError(error.description)
        }
        if !InspectorServer.isLoopback(host) {
            Terminal.standardError.write("reactor-inspect: warning: listening on \(host): other machines can read this trace\n")
        }
        follower.start { error in
            Terminal.standardError.write("reactor-inspect: \(error.description)\n")
            Foundation.exit(2)
        }
        let path = trace.path
        let openPage = open
        let failure = server.run { url in
            Terminal.print("reactor-inspect: serving \(path) on \(url) (Ctrl-C to stop)\n")
            fflush(nil)  // a script reading the address must not wait for a full buffer
            if case let .waiting(message) = follower.current.status {
                Terminal.standardError.write("reactor-inspect: \(message) (Ctrl-C to stop)\n")
            }
            if openPage { Self.openInBrowser(url) }
        } notice: { line in
            Terminal.standardError.write("reactor-inspect: warning: \(line)\n")
        }
        throw ValidationError(failure.description)
    }

    /// Ctrl-C and `kill` end the server at once (status 130 or 143), whatever
    /// mask or disposition the process was started with: there is nothing to
    /// save, and the threads started after this inherit the unblocked mask.
    private static func exitOnInterrupt() {
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
        signal(SIGINT) { _ in _exit(130) }
        signal(SIGTERM) { _ in _exit(143) }
    }

    /// Hands `url` to `$BROWSER` if set, else the desktop's opener; failing
    /// to open is not an error (the address was printed).
    private static func openInBrowser(_ url: String) {
        #if os(macOS)
        let desktop = "/usr/bin/open"
        #else
        let desktop = "/usr/bin/xdg-open"
        #endif
        let opener = ProcessInfo.processInfo.environment["BROWSER"].flatMap { $0.isEmpty ? nil : $0 } ?? desktop
        guard FileManager.default.isExecutableFile(atPath: opener) else {
            Terminal.standardError.write("reactor-inspect: note: cannot open a browser here; open \(url)\n")
            return
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: opener)
        process.arguments = [url]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try? process.run()
    }
}
