import ReactorCore
import Foundation
import ReactorInspector
import ReactorTraceFormat
import Synchronization

/// Follows one trace file on a thread of its own with a ``LiveTrace`` (the one
/// trace model every command reads), and after each step publishes what the
/// page needs: the model so far, a ``LiveSnapshot`` and its Server-Sent Event.
/// Subscribers (the page's event streams) get each update pushed; a slow or
/// gone subscriber keeps at most a few updates, so memory stays bounded.
package final class TraceFollower: Sendable {
    /// The trace file.
    package let path: String
    /// Seconds between steps while the trace is caught up.
    package let interval: Double

    private let state: LockedValue<FollowedTrace>
    private let subscribers = LockedValue<[UInt64: AsyncStream<[UInt8]>.Continuation]>([:])
    private let nextSubscriber = Atomic<UInt64>(0)
    private let stopped = Atomic<Bool>(false)
    /// Owned by the following thread only (handed over once, before it starts).
    private let live: LiveTraceBox

    /// How many hot rows and recent actions a snapshot lists.
    package static let hotRows = 25
    package static let recentActions = 40
    /// Seconds without an update after which a comment line goes out, so a
    /// disconnected client is noticed even when the trace is finished.
    package static let heartbeatSeconds = 5.0

    /// Follows `path` (which need not exist yet), stepping every `interval` seconds once caught up;
    /// its live index snapshots every `snapshotInterval` bytes when given (``LiveTrace``).
    package init(path: String, interval: Double = 0.25, snapshotInterval: UInt64? = nil) {
        self.path = path
        self.interval = interval
        live = LiveTraceBox(LiveTrace(path: path, actionLimit: Self.recentActions, snapshotInterval: snapshotInterval))
        state = LockedValue(FollowedTrace(status: .waiting("waiting for \(path) to appear")))
    }

    /// The latest published state.
    package var current: FollowedTrace { state.withLock { $0 } }

    /// Opens the trace and reads what it holds for up to `budget` seconds, on
    /// the caller's thread, before the following starts: a file that can
    /// never be a trace throws here, and a short trace is whole in the first
    /// update. The rest of a long one is read by the following thread in
    /// slices, so the page comes up at once and fills in.
    package func readFirst(budget: Double = 0.3) throws(TraceFileError) {
        let trace = live.trace
        let deadline = Self.now() + UInt64(budget * 1e9)
        while try trace.poll(maxEvents: 1 << 14) > 0, !trace.status.isOver, Self.now() < deadline {}
        publish()
    }

    /// Starts following on a thread of its own. `failed` is called (on that
    /// thread) when the file turns out not to be a trace; following stops then.
    package func start(failed: @escaping @Sendable (TraceFileError) -> Void) {
        let thread = Thread { [self] in follow(failed: failed) }
        thread.name = "reactor-inspect serve: follower"
        thread.start()
    }

    /// A stream of Server-Sent Event messages: the current state first, then each update.
    package func subscribe() -> AsyncStream<[UInt8]> {
        let id = nextSubscriber.add(1, ordering: .relaxed).newValue
        // A client that does not keep up skips to the newest updates.
        let (stream, continuation) = AsyncStream<[UInt8]>.makeStream(bufferingPolicy: .bufferingNewest(4))
        continuation.onTermination = { [weak self] _ in
            _ = self?.subscribers.withLock { $0.removeValue(forKey: id) }
        }
        continuation.yield(current.message)
        subscribers.withLock { $0[id] = continuation }
        if stopped.load(ordering: .acquiring) { continuation.finish() }
        return stream
    }

    /// Ends the following after its current step and every open event stream.
    package func stop() {
        stopped.store(true, ordering: .releasing)
        let open = subscribers.withLock { streams in
            defer { streams.removeAll() }
            return Array(streams.values)
        }
        for continuation in open { continuation.finish() }
    }

    /// How many event streams are open.
    package var subscriberCount: Int { subscribers.withLock { $0.count } }

    private func follow(failed: @Sendable (TraceFileError) -> Void) {
        let trace = live.trace
        var lastPush = Self.now()
        while !stopped.load(ordering: .acquiring) {
            let stepStart = Self.now()
            var read = 0
            do {
                // Also when the trace is over: the poll notices a file replaced, rewritten or removed.
                read += try trace.poll(maxEvents: 1 << 16)
            } catch {
                failed(error)
                return
            }
            if !trace.status.isOver, read > 0 {
                // A bounded slice under a heavy load, so updates keep flowing while the reader catches up.
                let deadline = stepStart + UInt64(interval * 0.6 * 1e9)
                do {
                    while Self.now() < deadline {
                        let count = try trace.poll(maxEvents: 1 << 16)
                        read += count
                        if count == 0 { break }
                    }
                } catch {
                    failed(error)
                    return
                }
            }
            let before = current
            if read > 0 || trace.status != before.status || before.version == 0 || before.generation != trace.generation {
                publish()
                lastPush = Self.now()
            } else if Double(Self.now() - lastPush) / 1e9 >= Self.heartbeatSeconds {
                send(Array(": still here\n\n".utf8))
                lastPush = Self.now()
            }
            // Behind: straight on; caught up: wait for the next step.
            let elapsed = Double(Self.now() - stepStart) / 1e9
            if read < (1 << 16) || trace.status.isOver, elapsed < interval {
                usleep(UInt32((interval - elapsed) * 1e6))
            }
        }
    }

    /// Builds the model and snapshot of what was read and pushes them to every subscriber.
    private func publish() {
        let trace = live.trace
        let now = Self.now()
        let previous = current
        let model = trace.model()
        let elapsed = previous.version == 0 ? nil : now - previous.publishedAt
        let snapshot = live.sampler.withLock { $0.snapshot(of: trace, model: model, elapsedNanoseconds: elapsed) }
        // The graph's shape: nodes and held edges. A change asks the page to draw it again.
        let shape = [model.nodes.count, model.finalEdges.count, model.edges.count]
        let sameRun = previous.generation == trace.generation
        let graphVersion = shape == previous.graphShape && sameRun ? previous.graphVersion : previous.graphVersion + 1
        var next = FollowedTrace(status: trace.status)
        next.generation = trace.generation
        next.version = previous.version + 1
        next.model = trace.status.isWaiting ? nil : model
        next.index = trace.status.isWaiting ? nil : trace.index()
        next.bytesRead = trace.bytesRead
        next.end = trace.end
        next.metadata = trace.metadata
        next.history = trace.history
        next.snapshot = snapshot
        next.actionsBegun = trace.actionsBegun
        next.actionsEnded = trace.actionsEnded
        next.graphShape = shape
        next.graphVersion = graphVersion
        next.latestTimestamp = model.lastTimestamp
        next.publishedAt = now
        next.message = Self.message(for: next)
        state.withLock { $0 = next }
        send(next.message)
    }

    private func send(_ message: [UInt8]) {
        let open = subscribers.withLock { Array($0.values) }
        for continuation in open { continuation.yield(message) }
    }

    /// The `update` event: one line of JSON (a compact encoding has no line breaks).
    static func message(for state: FollowedTrace) -> [UInt8] {
        let update = FollowerUpdate(version: state.version, graphVersion: state.graphVersion,
                                    actionsBegun: state.actionsBegun, lastTimestampNanoseconds: state.latestTimestamp,
                                    firstTimestampNanoseconds: state.model?.firstTimestamp ?? 0,
                                    snapshot: state.snapshot)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let json = (try? encoder.encode(update)) ?? Data("{}".utf8)
        return Array("event: update\nid: \(state.version)\ndata: ".utf8) + Array(json) + Array("\n\n".utf8)
    }

    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}

/// The ``LiveTrace`` and its sampler. The trace is used by the following
/// thread only: once by ``TraceFollower/readFirst()`` before that thread
/// starts, then by that thread alone, which is why the box may be shared.
private final class LiveTraceBox: @unchecked Sendable {
    let trace: LiveTrace
    let sampler = LockedValue(LiveSampler(top: TraceFollower.hotRows, recent: TraceFollower.recentActions))

    init(_ trace: LiveTrace) {
        self.trace = trace
    }
}

extension LiveTraceStatus {
    var isWaiting: Bool {
        if case .waiting = self { return true }
        return false
    }
}
