import Dispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A reactive runtime: it runs autoruns, queues the ones invalidated by
/// changes and reruns them at flush time (Meteor Tracker's semantics).
///
/// Every public operation may be called from any thread. Graph operations are
/// serialised by one process-wide lock, so a runtime runs one flush at a time
/// and never two of its computations at once; closures need not be `@Sendable`.
public final class Reactor: @unchecked Sendable {
    // @unchecked Sendable: every mutable field is guarded by the graph lock.

    /// The process default runtime, flushing at the end of each batch.
    public static let shared = Reactor()

    /// When this runtime flushes.
    public let scheduler: FlushScheduler
    /// The process-wide graph (see `Computation.graph`).
    @usableFromInline let graph: Graph = ReactorCore.graph

    /// How many times one computation may run within one flush before it is
    /// reported as ``ReactorIssue/runaway(computation:reruns:)`` and stopped.
    public var runawayLimit: Int {
        get { graph.lock.withLock { storedRunawayLimit } }
        set { graph.lock.withLock { storedRunawayLimit = max(1, newValue) } }
    }

    /// Receives misuse and uncaught errors. The default prints one line to stderr.
    public var issueHandler: (ReactorIssue) -> Void {
        get { graph.lock.withLock { storedIssueHandler } }
        set { graph.lock.withLock { storedIssueHandler = newValue } }
    }

    @exclusivity(unchecked) var storedRunawayLimit = 10_000
    @exclusivity(unchecked) var storedIssueHandler: (ReactorIssue) -> Void = Reactor.printIssue
    /// Invalidated computations to rerun, each kept alive by its entry until
    /// the flush drops it.
    @exclusivity(unchecked) var pending = PendingQueue()
    @exclusivity(unchecked) var afterFlushCallbacks: [() -> Void] = []
    /// A flush is scheduled or running (Tracker's `willFlush`).
    @exclusivity(unchecked) var willFlush = false
    @exclusivity(unchecked) var flushing = false
    @exclusivity(unchecked) var flushCount = 0
    /// Counts the passes of all flushes (a pass ends with one afterFlush
    /// callback); a computation's reruns are counted per pass.
    @exclusivity(unchecked) var flushPass = 0

    /// Creates a runtime with its own queue of invalidated computations.
    public init(scheduler: FlushScheduler = .endOfBatch) {
        self.scheduler = scheduler
    }

    deinit {
        // Queued computations hold this runtime, so the queue is empty here
        // unless that changes.
        pending.dropAll()
    }

    /// Runs `body` now and again whenever what it read changes; returns the
    /// computation, which is also passed to `body`.
    ///
    /// Created inside another computation, it is stopped when that one is
    /// invalidated. If the first run throws, the computation is stopped and
    /// the error goes to `onError`, else to ``issueHandler``.
    ///
    /// Traces that record values follow secrets through it: after it reads a
    /// secret in a run, what that run writes and sends, and the arguments of
    /// the actions it calls, are written as `‹redacted›`. `reveals: true`
    /// declassifies them: they are written in clear whatever it read.
    @discardableResult
    public func autorun(_ name: String? = nil,
                        reveals: Bool = false,
                        onError: ((any Error) -> Void)? = nil,
                        fileID: String = #fileID,
                        line: Int = #line,
                        _ body: @escaping (Computation) throws -> Void) -> Computation {
        graph.operation {
            let parent = graph.currentComputation
            let computation = Computation(reactor: self, name: name ?? "\(fileID):\(line)",
                                          parentID: parent?.id ?? 0, kind: .computation,
                                          onError: onError, body: body,
                                          secrecy: RunSecrecy(reveals: reveals, isMarked: false))
            traceSite(computation.id, fileID: fileID, line: line)
            do {
                try computation.compute()
                computation.firstRun = false
            } catch {
                computation.firstRun = false
                computation.stop(cause: .error, source: 0)
                if let onError { onError(error) } else { report(.uncaughtError(error, computation: computation)) }
            }
            // A child that already stopped (it threw, or stopped itself) needs no link.
            if let parent, !computation.stopped {
                parent.onInvalidateCallbacks.append { [computation] parent in
                    computation.stop(cause: .parent, source: parent.id)
                }
                if parent.isInvalidatedOrDirty { computation.stop(cause: .parent, source: parent.id) }
            }
            return computation
        }
    }

    /// Reruns every invalidated computation, then runs the `afterFlush`
    /// callbacks, until nothing is left. Ignored, and reported, when called
    /// inside a computation or during a flush.
    public func flush() {
        graph.operation { runFlush() }
    }

    /// Runs `callback` once at the end of the next flush (or of the current
    /// one), after the invalidated computations have rerun.
    public func afterFlush(_ callback: @escaping () -> Void) {
        graph.operation {
            afterFlushCallbacks.append(callback)
            requireFlush()
        }
    }

    /// Registers `callback` to run when the current computation is invalidated.
    /// With no current computation, the call is reported and ignored.
    public func onInvalidate(_ callback: @escaping (Computation) -> Void) {
        graph.operation {
            guard let current = currentComputationLocked else {
                report(.noCurrentComputation)
                return
            }
            current.onInvalidate(callback)
        }
    }

    /// Runs `body` with no current computation, so what it reads is not tracked.
    ///
    /// Traces that record values still follow secrets through it: a secret
    /// read in `body`, inside an autorun or a computed, makes what that run
    /// produces a secret as if read outside it.
    public func nonreactive<T>(_ body: () throws -> T) rethrows -> T {
        guard graph.lock.isHeldByCurrentThread else { return try body() }
        return try graph.nonreactiveFollowingSecrets(body)
    }

    /// Runs `body` with `computation` as the current computation, so what it
    /// reads becomes that computation's dependencies (Tracker's
    /// `withComputation`). This is how work that finishes later, in a `Task`
    /// started by an autorun, keeps depending on its computation; `nil` is
    /// `nonreactive`. The caller keeps `computation` alive for the call.
    @discardableResult
    public func withComputation<T>(_ computation: Computation?, _ body: () throws -> T) rethrows -> T {
        try graph.operation {
            guard let computation else { return try graph.nonreactiveFollowingSecrets(body) }
            let previous = graph.current
            graph.current = Unmanaged.passUnretained(computation)
            // Made current again inside its own `nonreactive` block or action
            // (traced with values): its reads are tracked, as without a tracer.
            let tracing = computation.runTracing
            if tracing.isUntracked { computation.runTracing = .tracedWithValues }
            defer {
                computation.runTracing = tracing
                graph.current = previous
            }
            return try body()
        }
    }

    /// Runs `body` as one batch: computations invalidated inside it rerun once,
    /// when the outermost batch returns (with `.endOfBatch` scheduling).
    public func batch<T>(_ body: () throws -> T) rethrows -> T {
        try graph.operation(body)
    }

    /// True when a computation of this runtime is running on this thread.
    public var isActive: Bool { currentComputation != nil }

    /// The computation running on this thread whose reads are being recorded.
    public var currentComputation: Computation? {
        guard graph.lock.isHeldByCurrentThread else { return nil }
        return currentComputationLocked
    }

    /// True while this runtime is flushing on this thread.
    public var inFlush: Bool {
        graph.lock.isHeldByCurrentThread && flushing
    }

    /// How many flushes this runtime has run.
    public var flushes: Int { graph.lock.withLock { flushCount } }

    private var currentComputationLocked: Computation? {
        guard let current = graph.currentComputation, current.reactor === self else { return nil }
        return current
    }

    static func printIssue(_ issue: ReactorIssue) {
        let line = "Reactor: \(issue)\n"
        writeToStandardError(line)
    }
}

/// Writes `text` to file descriptor 2 in one call (outside `Reactor`, whose
/// `write(_:)` would hide libc's `write` inside the type).
private func writeToStandardError(_ text: String) {
    _ = text.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
}

// MARK: - Flushing (graph lock held)

extension Reactor {
    /// Queues `computation` for the next flush. The usual case (a flush is
    /// due already, the queue has room, the computation holds itself for its
    /// links) calls nothing, so that it needs no frame; the rest is
    /// `enqueueSlowly(_:)`, a tail call. `linked`: the caller reached it
    /// through one of its live links, so it holds itself (it has links).
    @inline(__always)
    func enqueue(_ computation: Computation, linked: Bool = false) {
        if computation.queued { return }
        guard willFlush, pending.hasRoom, linked || computation.holdsItself else { return enqueueSlowly(computation) }
        computation.queued = true
        pending.appendHeld(computation)
    }

    @inline(never)
    func enqueueSlowly(_ computation: Computation) {
        computation.queued = true
        pending.append(computation)
        requireFlush()
    }

    func requireFlush() {
        if willFlush { return }
        scheduleFlush()
    }

    // Out of line: inlined into the walks that enqueue, its dispatch code
    // would enlarge their frames (one per level of a chain of computeds).
    @inline(never)
    private func scheduleFlush() {
        willFlush = true
        switch scheduler {
        case .manual:
            break
        case .endOfBatch:
            graph.reactorsAwaitingFlush.append(self)
        case let .dispatch(queue):
            scheduleFlush(on: queue)
        }
    }

    // Out of line: its closure's setup would otherwise make every
    // end-of-batch schedule save and restore more registers.
    @inline(never)
    private func scheduleFlush(on queue: DispatchQueue) {
        // Skipped if a flush by hand ran in the meantime.
        queue.async { [self] in graph.operation { if willFlush { runFlush() } } }
    }

    /// Reports `issue` to the trace and the issue handler; `node` overrides the
    /// node the trace event names (the computed that closed a cycle, say).
    func report(_ issue: ReactorIssue, node: UInt64? = nil) {
        withTracer { $0.issue(issue.traceKind, node: node ?? issue.traceNode, message: issue.traceMessage) }
        let handler = storedIssueHandler
        graph.nonreactive { handler(issue) }
    }

    /// Tracker's `_runFlush`, run to completion.
    func runFlush() {
        if flushing { report(.nestedFlush); return }
        if graph.isComputing { report(.flushInsideComputation); return }
        flushing = true
        willFlush = true
        graph.flushDepth &+= 1
        flushCount &+= 1
        withTracer { $0.flushBegan() }
        var nextCallback = 0
        while !pending.isEmpty || nextCallback < afterFlushCallbacks.count {
            // A computation invalidated again by each afterFlush callback is
            // not a runaway: only reruns within one pass count.
            flushPass &+= 1
            var head = 0
            while head < pending.count {
                // The entry keeps it alive until the pass's entries are dropped.
                let rerun = pending[head]._withUnsafeGuaranteedRef { step($0, at: head) }
                if !rerun { head &+= 1 }
            }
            releasePending()
            if nextCallback < afterFlushCallbacks.count {
                let callback = afterFlushCallbacks[nextCallback]
                nextCallback += 1
                graph.nonreactive { callback() }
            }
        }
        // No `defer` (an outlined call): nothing above throws or returns early.
        if nextCallback > 0 { afterFlushCallbacks.removeSubrange(..<nextCallback) }
        withTracer { $0.flushEnded() }
        graph.flushDepth &-= 1
        flushing = false
        willFlush = false
    }

    @inline(never)
    private func stopRunaway(_ computation: Computation) {
        computation.stop(cause: .runaway, source: 0)
        report(.runaway(computation: computation, reruns: computation.runsInFlush - 1))
    }

    /// Drops the computations of the pass that ended. Their deinits may
    /// queue more (they stay, for the next pass).
    private func releasePending() {
        pending.dropFirst(pending.count)
    }

    /// The id of the computation whose rerun this flush begins next, right after the
    /// run of `computation`, the one at `head`, ends: with no user code and
    /// no other event between the end and that begin (see
    /// `Computation.traceRunEnd(flushHead:)`). Follows `step(_:at:)`
    /// and `Computation.recompute(untraced:flushHead:)`: `computation` again
    /// if it was invalidated during its run and is not a runaway yet, else the
    /// next entry of the pass if it is invalidated (no check walk before its
    /// rerun), not stopped, not a first run and not a runaway; else 0.
    /// Traced runs only.
    @inline(__always)
    func nextRerun(after computation: Computation, at head: Int) -> UInt64 {
        if computation.needsRecompute {
            // It stays at the head and counts one more run in this pass.
            return computation.runsInFlush < storedRunawayLimit ? computation.id : 0
        }
        let next = head &+ 1
        // The pass's last: its entries are released and `afterFlush` callbacks may run.
        guard next < pending.count else { return 0 }
        return pending[next]._withUnsafeGuaranteedRef { candidate in
            guard candidate.invalidated, !candidate.stopped, !candidate.firstRun else { return 0 }
            if candidate.flushEpoch == flushPass && candidate.runsInFlush >= storedRunawayLimit { return 0 }
            return candidate.id
        }
    }

    /// One step of the flush for the computation at the head of the queue (`head`):
    /// reruns it, or stops it as a runaway. True if it must run again at once
    /// (it stays at the head, as with Tracker's unshift).
    private func step(_ computation: Computation, at head: Int) -> Bool {
        computation.queued = false
        if computation.flushEpoch != flushPass {
            // Its first run in this pass: within the limit, which is at least 1.
            computation.flushEpoch = flushPass
            computation.runsInFlush = 1
        } else {
            computation.runsInFlush &+= 1
            if computation.runsInFlush > storedRunawayLimit {
                stopRunaway(computation)
                return false
            }
        }
        computation.recompute(flushHead: head)
        if computation.needsRecompute {
            computation.queued = true
            return true
        }
        return false
    }
}
