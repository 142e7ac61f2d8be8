import ArgumentParser
import ReactorInspector
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `reactor-inspect top TRACE [--interval S] [--once] [--top N]`.
struct TopCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "top",
        abstract: "A live view of a trace while the app records it: hot computations, recent actions, issues.",
        discussion: """
            Refreshes every --interval seconds while the app records; on a finished
            trace it shows the final state. Press q to quit (Ctrl-C also restores the
            terminal). With --once, or when standard output is not a terminal, it
            prints one snapshot of the trace so far and exits. A trace that does not
            exist yet is waited for, except with --once or --json (a missing file is
            then one error line and status 2); one that stopped inside its header
            (for 2 s) is refused as truncated.

            Examples:
              stress --loop --trace out/live.trace &
              reactor-inspect top out/live.trace
              reactor-inspect top out/live.trace --once --top 5
            """ + MetricsHelp.pointer
    )

    @OptionGroup var trace: TraceArgument
    @OptionGroup var output: OutputOptions

    @Option(help: "Seconds between refreshes.")
    var interval: Double = 1

    @Flag(help: "Print one snapshot of the trace so far and exit (the default when stdout is not a terminal).")
    var once = false

    @Option(help: "How many computations to list.")
    var top = 15

    @Flag(help: "Print one snapshot as JSON (path, status, events, hot, actions, issues…) and exit.")
    var json = false

    func validate() throws {
        guard interval >= 0.05, interval <= 3600 else { throw ValidationError("--interval must be between 0.05 and 3600 seconds") }
        guard top >= 0 else { throw ValidationError("--top must be 0 or more") }
    }

    func run() throws {
        let live = LiveTrace(path: trace.path)
        // One snapshot asked for: a missing file is a mistake to report, not a recording to wait for.
        if once || json, access(live.path, F_OK) != 0 {
            throw ValidationError("cannot read \(live.path): \(String(cString: strerror(errno)))")
        }
        try waitForRecording(live)
        var sampler = LiveSampler(top: top)
        guard !once, !json, Terminal.isTerminal(1) else {
            // One snapshot: everything that has landed by now.
            do { try live.catchUp() } catch { throw ValidationError(error.description) }
            let snapshot = sampler.snapshot(of: live, model: live.model())
            Terminal.print(json ? try JSONText.encode(snapshot) : snapshot.text(style: output.style, width: 120))
            if case let .damaged(detail) = live.status {
                Terminal.standardError.write("reactor-inspect: warning: \(detail)\n")
                throw ExitCode(2)
            }
            return
        }
        TerminalScreen.enter()
        defer { TerminalScreen.leave() }
        let period = Int(interval * 1000)
        var last = Self.now()
        while true {
            // Caught up or, under a heavy load, a bounded slice: the screen keeps refreshing. Also
            // when the trace is over: the poll notices a file replaced, rewritten or removed.
            let deadline = Self.now() + UInt64(period) * 500_000
            while try read(live) > 0, Self.now() < deadline {}
            let now = Self.now()
            let snapshot = sampler.snapshot(of: live, model: live.model(), elapsedNanoseconds: now - last)
            last = now
            let size = TerminalScreen.size()
            let footer = live.status.isOver ? "final state; q to quit" : "refreshing every \(interval) s; q to quit"
            TerminalScreen.draw(snapshot.text(style: output.style, width: size.width, height: size.height - 2)
                                + "\n" + footer + "\n")
            let waitUntil = Self.now() + UInt64(period) * 1_000_000
            while Self.now() < waitUntil {
                let remaining = Int((waitUntil - Self.now()) / 1_000_000)
                if let key = TerminalScreen.key(within: max(1, remaining)), key == UInt8(ascii: "q") || key == UInt8(ascii: "Q") {
                    return
                }
            }
        }
    }

    /// Waits until the trace exists and has its header, with one line on
    /// stderr while it does not exist (a header being written is a moment's
    /// wait, and one that stopped short ends in an error line of its own).
    private func waitForRecording(_ live: LiveTrace) throws {
        var told = false
        while case let .waiting(message) = live.status {
            try read(live)
            guard case .waiting = live.status else { break }
            if !told, access(live.path, F_OK) != 0 {
                Terminal.standardError.write("reactor-inspect: \(message) (Ctrl-C to stop)\n")
                told = true
            }
            usleep(100_000)
        }
    }

    /// Polls the trace: a file that can never be a trace becomes one line and exit status 2.
    @discardableResult
    private func read(_ live: LiveTrace) throws -> Int {
        do {
            return try live.poll(maxEvents: 1 << 20)
        } catch {
            throw ValidationError(error.description)
        }
    }

    private static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}
