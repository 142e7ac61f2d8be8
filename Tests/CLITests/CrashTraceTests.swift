import BuiltProducts
import Foundation
import ReactorCore
import ReactorTrace
import Testing

/// A sample that dies (a computed cycle in a first computation, a bad pointer,
/// abort()) still leaves a readable trace holding every event it recorded and
/// what it died of, which `summary` and `why` show.
@Suite("Crash traces")
struct CrashTraceTests {
    /// How a child process ended.
    struct Ending {
        /// The signal that ended it, or nil when it exited.
        let signal: Int32?
        /// Its exit status when it exited.
        let status: Int32
        let stderr: String
        var stderrLines: [Substring] { stderr.split(separator: "\n") }
    }

    /// Runs product `name` with posix_spawn and waitpid, which say exactly how
    /// it ended (signal or exit), with stderr in a file.
    static func spawn(_ name: String, _ arguments: [String], environment: [String: String] = [:]) throws -> Ending {
        let executable = try BuiltProducts.path(of: name)
        let errPath = SampleTrace.directory.appendingPathComponent("stderr-\(UUID().uuidString)").path
        defer { unlink(errPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        // Nothing else of the test process: the runtime's backtracer outlives the crashed
        // child, and a pipe it inherited would keep another test's reader waiting for its end.
        let inherited = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for fd in inherited.compactMap(Int32.init) where fd > 2 && fcntl(fd, F_GETFD) >= 0 {
            posix_spawn_file_actions_addclose(&actions, fd)
        }
        var merged = ProcessInfo.processInfo.environment
        merged["REACTOR_TRACE"] = nil
        for (key, value) in environment { merged[key] = value }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        // A process group of its own: the runtime's backtracer, which a crash
        // starts and which can outlive the child, goes with it below.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // No signal blocked, as an app starts (a test's thread blocks many, and a child inherits its mask).
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        posix_spawnattr_setsigmask(&attributes, &unblocked)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK))
        posix_spawnattr_setpgroup(&attributes, 0)
        var pid = pid_t()
        let spawned = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        try #require(spawned == 0, "posix_spawn failed: \(spawned)")
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        kill(-pid, SIGKILL)
        let stderr = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
        // WIFSIGNALED / WTERMSIG / WEXITSTATUS, which Swift does not import as macros.
        let signal = status & 0x7F
        return Ending(signal: signal != 0 && signal != 0x7F ? signal : nil, status: (status >> 8) & 0xFF, stderr: stderr)
    }

    /// What the trace of a `counter --increments 5 --crash KIND` run holds.
    struct Crashed {
        let run: Ending
        let path: String
        let events: [TraceEvent]
        let end: TraceEnd?
    }

    static func crash(_ kind: String, backtracer: Bool = false) throws -> Crashed {
        let path = SampleTrace.directory.appendingPathComponent("crash-\(kind)-\(UUID().uuidString).trace").path
        // The Swift runtime's backtracer is a previous handler our handlers chain to;
        // it is slow to print, so most runs turn it off.
        let run = try spawn("counter", ["--trace", path, "--increments", "5", "--crash", kind],
                                        environment: backtracer ? [:] : ["SWIFT_BACKTRACE": "enable=no"])
        let reader = try TraceReader(path: path)
        var events: [TraceEvent] = []
        while let event = try reader.next() { events.append(event) }
        return Crashed(run: run, path: path, events: events, end: reader.end)
    }

    /// The events every crashed run recorded before dying: the label autorun's
    /// first run and its 5 reruns, one per increment.
    static func expectCounterEvents(_ crashed: Crashed) {
        let changes = crashed.events.filter { if case .changed = $0.record { true } else { false } }
        let runs = crashed.events.filter { if case .rerunBegan = $0.record { true } else { false } }
        #expect(changes.count == 5)
        #expect(runs.count >= 6)
        #expect(crashed.end?.events == UInt64(crashed.events.count))
        #expect(crashed.end?.eventsDropped == 0)
    }

    static func cycleIssues(_ crashed: Crashed) -> [(node: UInt64, message: String)] {
        crashed.events.compactMap { event in
            if case let .issue(kind, node, message) = event.record, kind == .cycle { return (node, message) }
            return nil
        }
    }

    @Test("a computed that reads itself: the process traps, the trace holds the cycle")
    func selfCycle() throws {
        let crashed = try Self.crash("cycle")
        #expect(crashed.run.signal == SIGILL || crashed.run.signal == SIGTRAP)
        #expect(crashed.run.stderr.contains("computed values form a cycle: total -> total"))
        Self.expectCounterEvents(crashed)
        #expect(crashed.end?.termination == .runtimeError)
        let issues = Self.cycleIssues(crashed)
        try #require(issues.count == 1)
        #expect(issues[0].message == "computed values form a cycle: total -> total")
        let total = crashed.events.compactMap { event -> UInt64? in
            if case let .nodeCreated(id, .computed, name, _) = event.record, name == "total" { return id }
            return nil
        }
        #expect(total == [issues[0].node])

        let summary = try BuiltProducts.inspect("summary", crashed.path)
        #expect(summary.status == 0)
        #expect(summary.stdout.contains("computed values form a cycle: total -> total"))
        #expect(summary.stdout.contains("the runtime stopped the process"))
        let json = try BuiltProducts.inspect("summary", crashed.path, "--json")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["ending"] as? String == "runtime-error")
        #expect(object["issues"] as? Int == 1)

        let why = try BuiltProducts.inspect("why", crashed.path, "total")
        #expect(why.status == 0)
        #expect(why.stdout.contains("Issues"))
        #expect(why.stdout.contains("cycle  computed values form a cycle: total -> total"))
    }

    @Test("two computeds that read each other: the cycle's path in the trace, summary and why")
    func mutualCycle() throws {
        let crashed = try Self.crash("mutual-cycle")
        #expect(crashed.run.signal == SIGILL || crashed.run.signal == SIGTRAP)
        Self.expectCounterEvents(crashed)
        #expect(crashed.end?.termination == .runtimeError)
        #expect(Self.cycleIssues(crashed).map(\.message) == ["computed values form a cycle: width -> height -> width"])
        let summary = try BuiltProducts.inspect("summary", crashed.path)
        #expect(summary.stdout.contains("width -> height -> width"))
        // Both members list the cycle, though the issue names the one that closed it.
        for member in ["width", "height"] {
            let why = try BuiltProducts.inspect("why", crashed.path, member, "--json")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(why.stdout.utf8)) as? [String: Any])
            let issues = try #require(object["issues"] as? [[String: Any]])
            #expect(issues.map { $0["kind"] as? String } == ["cycle"])
        }
        let label = try BuiltProducts.inspect("why", crashed.path, "label", "--json")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(label.stdout.utf8)) as? [String: Any])
        #expect((object["issues"] as? [Any])?.isEmpty == true)
    }

    @Test("a bad pointer: the process dies of SIGSEGV, the trace holds every event and says so",
          arguments: [false, true])
    func segmentationFault(backtracer: Bool) throws {
        let crashed = try Self.crash("segv", backtracer: backtracer)
        #expect(crashed.run.signal == SIGSEGV)
        Self.expectCounterEvents(crashed)
        #expect(crashed.end?.termination == .signal(SIGSEGV))
        let summary = try BuiltProducts.inspect("summary", crashed.path)
        #expect(summary.stdout.contains("the process died of SIGSEGV"))
    }

    @Test("a stack overflow on a thread that recorded: the process dies of SIGSEGV, the trace holds every event",
          arguments: [false, true])
    func threadStackOverflow(backtracer: Bool) throws {
        let crashed = try Self.crash("thread-overflow", backtracer: backtracer)
        #expect(crashed.run.signal == SIGSEGV)
        Self.expectCounterEvents(crashed)
        #expect(crashed.end?.termination == .signal(SIGSEGV))
        // The overflowing thread's own autorun, created and run on a thread other than main's.
        let created = crashed.events.filter { event in
            if case let .nodeCreated(_, .computation, name, _) = event.record { return name == "overflowing" }
            return false
        }
        try #require(created.count == 1)
        let main = crashed.events.first?.thread
        #expect(created[0].thread != main)
        #expect(crashed.events.contains { event in
            if case .rerunBegan = event.record { return event.thread == created[0].thread }
            return false
        })
        let summary = try BuiltProducts.inspect("summary", crashed.path)
        #expect(summary.stdout.contains("the process died of SIGSEGV"))
    }

    @Test("a SIGTERM as the recording starts, which its writer thread could take: every run ends with an end block")
    func terminationAsTheRecordingStarts() throws {
        // The race is one of thread start-up: repeated, so that a writer that can take the
        // signal before it knows it is the writer (and wait for itself) shows (1 run in 5 did).
        for _ in 0..<24 {
            let crashed = try Self.crash("early-term")
            defer { unlink(crashed.path) }
            #expect(crashed.run.signal == SIGTERM)
            Self.expectCounterEvents(crashed)
            #expect(crashed.end?.termination == .signal(SIGTERM))
            if crashed.end == nil { break }
        }
    }

    @Test("abort(): the process dies of SIGABRT, the trace holds every event")
    func abortSignal() throws {
        let crashed = try Self.crash("abort")
        #expect(crashed.run.signal == SIGABRT)
        Self.expectCounterEvents(crashed)
        #expect(crashed.end?.termination == .signal(SIGABRT))
    }

    @Test("--crash with an unknown kind is one line and exit 2")
    func unknownCrashKind() throws {
        let run = try Self.spawn("counter", ["--crash", "gently"])
        #expect(run.status == 2)
        #expect(run.signal == nil)
        #expect(run.stderrLines.count == 1)
    }
}
