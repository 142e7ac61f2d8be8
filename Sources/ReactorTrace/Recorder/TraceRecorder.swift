import Foundation
import CReactorTraceThread
import CReactorTraceCrash
import ReactorCore
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Records the reactive core's trace events to a binary log (docs/TRACE_FORMAT.md).
///
/// ```swift
/// try TraceRecorder.start(path: "app.trace")   // or REACTOR_TRACE=app.trace + startFromEnvironment()
/// …
/// TraceRecorder.stop()                           // ships the rest and closes the file
/// ```
///
/// Each thread appends events to its own buffer (reached through a thread-local)
/// with no lock: one release store per event publishes it. A background writer
/// ships full buffers, and every ``Options/flushInterval`` what the others have
/// published, as checksummed chunks. A process killed with SIGKILL therefore keeps
/// everything but the last `flushInterval` of events, and at most
/// `(maxQueuedSegments + 1) × segmentCapacity` bytes per recording thread.
///
/// A process that dies of a fatal signal (SIGSEGV, SIGBUS, SIGILL, SIGTRAP,
/// SIGABRT) or that the runtime stops (a computed that reads itself in its first
/// computation) loses nothing it had recorded: the dying thread has the writer
/// ship every published event and write an end block that says how the process ended
/// (see ``Options/flushesOnCrash``).
public final class TraceRecorder: ReactorTracer, Sendable {
    // Sendable: immutable fields only; the per-thread encoders are reached
    // through a thread-local (one owner each) and the writer synchronises itself.

    /// Tuning knobs of a recording. The defaults suit applications and benchmarks alike.
    public struct Options: Sendable {
        /// The bytes of one thread buffer, and so the largest chunk (256 B to 1 MiB).
        public var segmentCapacity: Int
        /// How many full buffers a thread may have waiting for the writer before
        /// it waits itself (backpressure instead of unbounded memory or silent loss).
        public var maxQueuedSegments: Int
        /// How often the writer ships partly filled buffers: the time bound of
        /// what a crash can lose.
        public var flushInterval: Duration
        /// Whether event times may come from the CPU's cycle counter (x86-64
        /// TSC, when the kernel's clocksource is `tsc`) scaled to nanoseconds,
        /// which costs less than half of `clock_gettime`. Off: always
        /// `clock_gettime(CLOCK_MONOTONIC)`.
        public var usesCycleCounter: Bool
        /// Whether writes record the values they write (and actions their
        /// arguments). Off by default: a trace then holds no application data.
        public var values: ValueCapture
        /// Whether ``TraceRecorder/start(path:options:)`` installs handlers for
        /// the fatal signals (SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT) that
        /// flush the trace before handing the signal on to the handler installed
        /// before them (or the default action). The runtime's own fatal errors
        /// flush the trace either way.
        public var flushesOnCrash: Bool
        /// Whether ``TraceRecorder/start(path:options:)`` installs handlers for SIGINT and
        /// SIGTERM (unless the process ignores them) that write the end block (termination
        /// "signal N") and then hand the signal to the handler installed before them, or
        /// restore the default action and re-raise it: Ctrl-C and `kill` leave a whole trace.
        public var endsOnTerminationSignals: Bool
        /// The largest the file may grow, in bytes: a bounded recording (a flight recorder)
        /// keeps its most recent events, between half the bound and the bound of them, and
        /// says in its history block what it overwrote. Nil: unbounded. At least 64 KiB;
        /// `REACTOR_TRACE_MAX_BYTES` (`20M`, `1G`) sets it when this is nil.
        public var maxBytes: Int?
        /// Whether SIGUSR1 writes a snapshot of the recording (the last ``maxBytes``, or all of
        /// it) to `NAME.snapshot-N.trace` beside the trace while recording goes on
        /// (`REACTOR_TRACE_SNAPSHOT_ON_SIGUSR1=1` turns it on too).
        public var snapshotsOnSIGUSR1: Bool
        /// The app's name, written in the trace's metadata (key `app`).
        public var appName: String?
        /// The app's own metadata entries (a build number, a device…), written in the
        /// trace's metadata in key order. Traces leave the machine: put no secret here.
        public var metadata: [String: String]

        /// Options with the given values (64 KiB buffers, 16 queued, 10 ms, no values, flushes on crash,
        /// ends on SIGINT and SIGTERM, unbounded by default).
        public init(segmentCapacity: Int = 64 << 10, maxQueuedSegments: Int = 16,
                    flushInterval: Duration = .milliseconds(10), usesCycleCounter: Bool = true,
                    values: ValueCapture = .off, flushesOnCrash: Bool = true, endsOnTerminationSignals: Bool = true,
                    maxBytes: Int? = nil, snapshotsOnSIGUSR1: Bool = false, appName: String? = nil,
                    metadata: [String: String] = [:]) {
            self.usesCycleCounter = usesCycleCounter
            self.values = values
            self.flushesOnCrash = flushesOnCrash
            self.endsOnTerminationSignals = endsOnTerminationSignals
            self.maxBytes = maxBytes
            self.snapshotsOnSIGUSR1 = snapshotsOnSIGUSR1
            self.appName = appName
            self.metadata = metadata
            self.segmentCapacity = min(max(segmentCapacity, 256), TraceFormat.maxPayloadLength)
            self.maxQueuedSegments = max(1, maxQueuedSegments)
            self.flushInterval = max(flushInterval, .milliseconds(1))
        }

        /// The smallest bound: a bounded recording keeps at least a few buffers of events.
        public static let minimumMaxBytes = 64 << 10

        /// The bound in effect: ``maxBytes`` raised to ``minimumMaxBytes``.
        public var effectiveMaxBytes: Int? { maxBytes.map { max($0, Self.minimumMaxBytes) } }

        /// The buffer size in effect: a bounded recording's buffers take at most a sixteenth
        /// of the bound, so that the chunks it keeps per thread fit in it many times.
        public var effectiveSegmentCapacity: Int {
            guard let bound = effectiveMaxBytes else { return segmentCapacity }
            return max(256, min(segmentCapacity, bound / 16))
        }
    }

    /// Which values a recording writes.
    public enum ValueCapture: Sendable, Hashable {
        /// None: no value, and no action argument, reaches the file.
        case off
        /// Each written value (and each action's arguments) as its description:
        /// `traceDescription` for `TraceValueDescribable` types, else
        /// `String(reflecting:)`, cut to `maxLength` UTF-8 bytes (16 to 4,096)
        /// at a character boundary, ending in `…` when cut. Secrets are written
        /// as `‹redacted›`: `Redacted` values, nodes marked `redacted`, and what
        /// an autorun or computed run that read one produces (unless it `reveals`).
        case described(maxLength: Int)

        /// What `REACTOR_TRACE_VALUES` in `environment` asks for: `.described(maxLength: N)`
        /// for a positive whole number N, nil when the variable is unset, empty or not one.
        public static func fromEnvironment(_ environment: [String: String]) -> ValueCapture? {
            guard let text = environment[TraceRecorder.valuesEnvironmentVariable],
                  let length = Int(text.trimmingCharacters(in: .whitespaces)), length > 0 else { return nil }
            return .described(maxLength: length)
        }

        /// The longest description written, in UTF-8 bytes; 0 when off.
        public var maxLength: Int {
            switch self {
            case .off: 0
            case let .described(maxLength): min(max(maxLength, 16), TraceFormat.maxStringLength)
            }
        }
    }

    /// What `stop()` reports about a finished recording.
    public struct Statistics: Sendable, Equatable {
        /// Events written to the file.
        public var events: UInt64
        /// Events the recording threads produced: `events` plus `eventsDropped`.
        public var eventsProduced: UInt64 { events &+ eventsDropped }
        /// Events produced but not in the file: a write error (a full disk, say)
        /// made the recorder drop them, or their thread's queue was full when
        /// `stop()` ran. The end block counts them too.
        public var eventsDropped: UInt64
        /// Chunks written.
        public var chunks: UInt64
        /// Bytes written, header and end block included.
        public var bytes: UInt64
        /// The `errno` of a failed write, or 0.
        public var writeError: Int32
        /// Events a bounded recording wrote and then overwrote to stay within its bound
        /// (not counted in `events`).
        public var eventsOverwritten: UInt64 = 0
    }

    /// The environment variable ``startFromEnvironment(_:options:)`` reads.
    public static let environmentVariable = "REACTOR_TRACE"
    /// The environment variable that turns value capture on for a recording
    /// started from the environment: `REACTOR_TRACE_VALUES=200` is
    /// `values: .described(maxLength: 200)`.
    public static let valuesEnvironmentVariable = "REACTOR_TRACE_VALUES"
    /// The environment variable that bounds a recording (``Options/maxBytes``) when its
    /// options do not: `20M`, `1G`, `256K`, or a number of bytes. Read by every way of
    /// starting a recording; a value that is not a size prints one line on stderr, and the
    /// recording goes on unbounded (losing nothing, rather than refusing to record).
    public static let maxBytesEnvironmentVariable = "REACTOR_TRACE_MAX_BYTES"
    /// The environment variable naming the commit a recording is made at (metadata `commit`);
    /// `GITHUB_SHA` when it is unset. Read by every way of starting a recording.
    public static let commitEnvironmentVariable = "REACTOR_TRACE_COMMIT"
    /// The environment variable naming the scenario a recording runs (metadata `scenario`);
    /// the executable's name when it is unset. Read by every way of starting a recording.
    public static let scenarioEnvironmentVariable = "REACTOR_TRACE_SCENARIO"
    /// The environment variable that turns ``Options/snapshotsOnSIGUSR1`` on (`1`).
    public static let snapshotSignalEnvironmentVariable = "REACTOR_TRACE_SNAPSHOT_ON_SIGUSR1"

    /// The file being written.
    public let path: String
    /// The options in effect.
    public let options: Options
    /// The longest value description recorded (0: values off); see ``ReactorTracer/valueLengthLimit``.
    public let valueLengthLimit: Int

    let generation: UInt64
    private let key: pthread_key_t
    /// The background writer (internal for tests).
    let writer: TraceWriter
    private let stopped = LockedValue<Statistics?>(nil)

    // MARK: Starting and stopping

    /// Starts recording to `path` (created or truncated) and installs the
    /// recorder as the process's tracer. Throws ``TraceRecorderError`` if a
    /// recording is already running or the file cannot be created.
    @discardableResult
    public static func start(path: String, options: Options = Options()) throws -> TraceRecorder {
        try start(path: path, options: options, environment: ProcessInfo.processInfo.environment)
    }

    /// ``start(path:options:)`` reading the recorder's environment variables from `environment`.
    static func start(path: String, options: Options, environment: [String: String]) throws -> TraceRecorder {
        try currentRecorder.withLock { current in
            if let running = current { throw TraceRecorderError.alreadyRecording(path: running.path) }
            let options = Self.options(options, from: environment)
            // The handlers first: they hand every signal on until the recorder arms them, which
            // it does before the file has a header, so every recording they see started gets an end block.
            if options.flushesOnCrash { reactor_trace_crash_install() }
            if options.endsOnTerminationSignals { reactor_trace_crash_install_termination() }
            let recorder = try TraceRecorder(path: path, options: options, environment: environment,
                                             flushesOnFatalSignals: options.flushesOnCrash || options.endsOnTerminationSignals,
                                             snapshotsOnSignal: options.snapshotsOnSIGUSR1)
            current = recorder
            ReactorTracing.install(recorder)
            registerExitHandler()
            ReactorTracing.onProcessWillTerminate { _ in TraceRecorder.current?.stop(termination: .runtimeError) }
            if options.snapshotsOnSIGUSR1 { reactor_trace_snapshot_install() }
            return recorder
        }
    }

    /// Starts recording to the path in the environment variable `REACTOR_TRACE`,
    /// if it is set and not empty; returns nil (and does nothing) otherwise.
    /// Call it once at launch: then `REACTOR_TRACE=app.trace ./app` records a trace.
    /// A recording started this way (like any other) is stopped at `exit()`.
    /// `REACTOR_TRACE_VALUES=N` (a positive number) records values cut to N
    /// bytes, overriding `options.values`; `REACTOR_TRACE_MAX_BYTES`, `REACTOR_TRACE_COMMIT`,
    /// `REACTOR_TRACE_SCENARIO` and `REACTOR_TRACE_SNAPSHOT_ON_SIGUSR1` are read as by
    /// ``start(path:options:)`` (from `environment` here).
    @discardableResult
    public static func startFromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment,
                                            options: Options = Options()) throws -> TraceRecorder? {
        guard let path = environment[environmentVariable], !path.isEmpty else { return nil }
        var options = options
        if let values = ValueCapture.fromEnvironment(environment) { options.values = values }
        return try start(path: path, options: options, environment: environment)
    }

    /// `options` with what the recorder's environment variables ask for and the options leave open.
    static func options(_ options: Options, from environment: [String: String]) -> Options {
        var options = options
        if options.maxBytes == nil, let text = environment[maxBytesEnvironmentVariable],
           !text.trimmingCharacters(in: .whitespaces).isEmpty {
            if let bytes = parseByteCount(text) {
                options.maxBytes = bytes
            } else {
                let line = "ReactorTrace: \(maxBytesEnvironmentVariable)=\(text) is not a size (20M, 1G, 256K or bytes); "
                    + "recording without a bound\n"
                _ = line.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
            }
        }
        if let flag = environment[snapshotSignalEnvironmentVariable], ["1", "true", "yes"].contains(flag.lowercased()) {
            options.snapshotsOnSIGUSR1 = true
        }
        return options
    }

    /// A byte count written as `20M`, `1G`, `256K` (binary multiples, an optional `B` or `iB`
    /// after the letter, any case) or a plain number of bytes; nil when it is not one or is 0.
    public static func parseByteCount(_ text: String) -> Int? {
        var digits = text.trimmingCharacters(in: .whitespaces).uppercased()
        if digits.hasSuffix("IB") { digits.removeLast(2) } else if digits.hasSuffix("B") { digits.removeLast() }
        var shift = 0
        switch digits.last {
        case "K": shift = 10
        case "M": shift = 20
        case "G": shift = 30
        case "T": shift = 40
        default: break
        }
        if shift > 0 { digits.removeLast() }
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), let number = Int(digits), number > 0,
              number <= Int.max >> shift else { return nil }
        return number << shift
    }

    /// The running recording, if any.
    public static var current: TraceRecorder? {
        currentRecorder.withLock { $0 }
    }

    /// Stops the running recording, if any: ships every published event,
    /// writes the end block and closes the file.
    @discardableResult
    public static func stop() -> Statistics? {
        current?.stop()
    }

    /// Stops this recording: uninstalls it, ships every published event, writes
    /// the end block and closes the file. Calling it again returns the same statistics.
    @discardableResult
    public func stop() -> Statistics {
        stop(termination: .stopped)
    }

    /// Stops this recording, writing `termination` in the end block.
    @discardableResult
    func stop(termination: TraceTermination) -> Statistics {
        Self.currentRecorder.withLock { current in
            if current === self {
                ReactorTracing.install(nil)
                current = nil
            }
        }
        return stopped.withLock { statistics in
            if let statistics { return statistics }
            writer.finish(termination: termination)
            let result = Statistics(events: writer.eventsWritten, eventsDropped: writer.eventsLost, chunks: writer.chunksWritten,
                                    bytes: writer.bytesWritten, writeError: writer.writeError,
                                    eventsOverwritten: writer.history?.eventsOverwritten ?? 0)
            statistics = result
            return result
        }
    }

    /// Writes a copy of the recording's last `maxBytes` (nil: this recording's
    /// ``Options/maxBytes``, or all of it when unbounded) to `path` while recording goes on:
    /// a trace that reads on its own (it restates the definitions of the nodes its events
    /// refer to) and ends with an end block saying it is a snapshot. Everything published
    /// before the call is in it. Waits for the writer thread (a pass of it, plus the copy).
    /// Throws ``TraceRecorderError/cannotSnapshot(path:reason:)`` when the file cannot be
    /// written and ``TraceRecorderError/notRecording`` once the recording has stopped.
    @discardableResult
    public func snapshot(to path: String, maxBytes: Int? = nil) throws(TraceRecorderError) -> Statistics {
        let bound = (maxBytes ?? options.effectiveMaxBytes).map { UInt64(max($0, 1)) }
        return try writer.snapshot(to: path, maxBytes: bound).get()
    }

    /// Opens a recording to `path` without installing it as the process's
    /// tracer: events reach it only through its ``ReactorTracer`` methods (for a
    /// tracer that forwards to several others, or to record a synthetic stream).
    /// ``start(path:options:)`` is the usual way in.
    public convenience init(path: String, options: Options = Options()) throws {
        let environment = ProcessInfo.processInfo.environment
        try self.init(path: path, options: Self.options(options, from: environment), environment: environment,
                      flushesOnFatalSignals: false, snapshotsOnSignal: false)
    }

    /// Opens a recording; with `flushesOnFatalSignals`, its writer is the one the
    /// fatal-signal handlers wait for (the process's installed recording only), and with
    /// `snapshotsOnSignal` the one that serves SIGUSR1. Its metadata comes from `options`
    /// and `environment` (``metadata(options:environment:)``).
    init(path: String, options: Options, environment: [String: String], flushesOnFatalSignals: Bool,
         snapshotsOnSignal: Bool) throws {
        self.path = path
        self.options = options
        valueLengthLimit = options.values.maxLength
        // Read as well as written: a bounded recording and a snapshot copy from it.
        let descriptor = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw TraceRecorderError.cannotCreate(path: path, reason: String(cString: strerror(errno)))
        }
        let time = TraceTimeSource.start(preferTicks: options.usesCycleCounter)
        generation = Self.nextGeneration.add(1, ordering: .relaxed).newValue
        key = Self.threadKey
        writer = TraceWriter(descriptor: descriptor, path: path, time: time,
                             segmentCapacity: options.effectiveSegmentCapacity,
                             maxQueuedSegments: options.maxQueuedSegments,
                             flushInterval: options.flushInterval,
                             maxBytes: options.effectiveMaxBytes.map { UInt64($0) },
                             metadata: Self.metadata(options: options, environment: environment))
        writer.snapshotsOnSignal = snapshotsOnSignal
        let header = TraceHeader(major: TraceFormat.majorVersion, minor: TraceFormat.minorVersion,
                                 clock: time.clock, wallStartNanoseconds: Self.wallTime(atMonotonic: time.monotonicStart),
                                 monotonicStartNanoseconds: time.monotonicStart,
                                 processID: UInt32(truncatingIfNeeded: getpid()))
        guard writer.start(header: header.encoded(), flushesOnFatalSignals: flushesOnFatalSignals) else {
            close(descriptor)
            throw TraceRecorderError.cannotCreate(path: path, reason: String(cString: strerror(writer.writeError)))
        }
    }

    /// A recording's metadata: `commit` (`REACTOR_TRACE_COMMIT`, else `GITHUB_SHA`), `scenario`
    /// (`REACTOR_TRACE_SCENARIO`, else the executable's name), `app` (``Options/appName``),
    /// then ``Options/metadata`` in key order; empty values are left out.
    static func metadata(options: Options, environment: [String: String]) -> TraceMetadata {
        func nonEmpty(_ text: String?) -> String? { text.flatMap { $0.isEmpty ? nil : $0 } }
        var metadata = TraceMetadata()
        metadata[TraceMetadata.commitKey] = nonEmpty(environment[commitEnvironmentVariable]) ?? nonEmpty(environment["GITHUB_SHA"])
        metadata[TraceMetadata.scenarioKey] = nonEmpty(environment[scenarioEnvironmentVariable])
            ?? nonEmpty(CommandLine.arguments.first.map { ($0 as NSString).lastPathComponent })
        metadata[TraceMetadata.appKey] = nonEmpty(options.appName)
        for (key, value) in options.metadata.sorted(by: { $0.key < $1.key }) where !key.isEmpty {
            metadata[key] = value
        }
        return metadata
    }

    /// The wall-clock time at which `CLOCK_MONOTONIC` read `monotonic` (a moment ago).
    private static func wallTime(atMonotonic monotonic: UInt64) -> UInt64 {
        let wall = MonotonicClock.wallNow()
        let now = MonotonicClock.now()
        return wall &- (now > monotonic ? now - monotonic : 0)
    }

    // MARK: Per-thread state

    /// Recording threads the writer still follows (for tests: exited threads are dropped).
    var registeredThreads: Int { writer.registeredThreads }

    /// Runs `body` with this thread's encoder, creating it on the thread's first event.
    @inline(__always)
    func withThread(_ body: (ThreadRecorder) -> Void) {
        // The C thread-local mirrors the pthread key's value: one load, no call.
        if let raw = reactor_trace_thread_get() {
            let thread = Unmanaged<ThreadRecorder>.fromOpaque(raw)
            if thread._withUnsafeGuaranteedRef({ $0.generation == generation }) {
                thread._withUnsafeGuaranteedRef(body)
                return
            }
        }
        attachThread()._withUnsafeGuaranteedRef(body)
    }

    /// Runs `body` with this thread's encoder and returns true when a fixed-size
    /// event can take the fast path: the thread records for this recording, its
    /// segment has room, and it has a time (and, for a `timed` event, reads the
    /// cycle counter). Else returns false: the caller takes the slow path.
    /// The events take at most ``ThreadRecorder/fixedBound`` bytes.
    @inline(__always)
    func recordFast(timed: Bool, _ body: (ThreadRecorder) -> Void) -> Bool {
        guard let raw = reactor_trace_thread_get() else { return false }
        return Unmanaged<ThreadRecorder>.fromOpaque(raw)._withUnsafeGuaranteedRef { thread in
            guard thread.generation == generation, thread.hasRoomOnFastPath(timed: timed) else {
                return false
            }
            body(thread)
            return true
        }
    }

    /// Makes this thread's encoder of this recording the one the thread-local
    /// points at, creating it on the thread's first event for the recording.
    /// The pthread key holds every encoder of the thread (``ThreadRecorderSet``):
    /// the thread keeps its encoder while another recording's events come
    /// between its own, and releases them when it exits.
    @inline(never)
    private func attachThread() -> Unmanaged<ThreadRecorder> {
        let set: ThreadRecorderSet
        if let raw = pthread_getspecific(key) {
            set = Unmanaged<ThreadRecorderSet>.fromOpaque(raw).takeUnretainedValue()
        } else {
            set = ThreadRecorderSet()
            pthread_setspecific(key, Unmanaged.passRetained(set).toOpaque())
        }
        let thread: ThreadRecorder
        if let known = set.recorder(generation: generation) {
            thread = known
        } else {
            thread = writer.register(generation: generation)
            set.add(thread)
            if options.flushesOnCrash { reactor_trace_crash_prepare_thread() }
        }
        let unmanaged = Unmanaged.passUnretained(thread)
        reactor_trace_thread_set(unmanaged.toOpaque())
        TraceThreadEncoder.setCurrent(thread.encoder)
        return unmanaged
    }

    private static let nextGeneration = Atomic<UInt64>(0)
    private static let currentRecorder = LockedValue<TraceRecorder?>(nil)

    /// One key for the process: recordings tell their states apart by generation.
    private static let threadKey: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { raw in
            // The thread is exiting: tell the writer its segments are final.
            guard let raw else { return }
            // An event emitted by a later destructor must not find the state
            // released here: it attaches a new one (glibc then calls this again).
            reactor_trace_thread_set(nil)
            TraceThreadEncoder.setCurrent(nil)
            let set = Unmanaged<ThreadRecorderSet>.fromOpaque(raw)
            for thread in set.takeUnretainedValue().recorders { thread.exited.store(true, ordering: .releasing) }
            set.release()
            reactor_trace_crash_release_thread()
        }
        precondition(status == 0, "ReactorTrace: pthread_key_create failed (\(status))")
        return key
    }()

    private static let exitHandlerRegistered = Atomic<Bool>(false)

    /// Stops the running recording at `exit()`, so a trace started from the
    /// environment ends cleanly without the app calling `stop()`.
    private static func registerExitHandler() {
        guard !exitHandlerRegistered.exchange(true, ordering: .relaxed) else { return }
        atexit { TraceRecorder.stop() }
    }
}
