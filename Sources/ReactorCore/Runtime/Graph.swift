/// The state shared by every runtime in the process: the lock and what it guards
/// beyond single nodes. Internal storage: all fields are read and written with
/// `lock` held (the computation running on the lock's holder is `current`).
@usableFromInline
final class Graph: @unchecked Sendable {
    @usableFromInline let lock = GraphLock()
    /// The computation whose reads are being recorded (nil inside `nonreactive`).
    /// Unowned: whoever started the run keeps the computation alive until it ends.
    @usableFromInline @exclusivity(unchecked) var current: Unmanaged<Computation>?
    /// Autoruns running, nested (Tracker's `inCompute` while above 0, even
    /// inside `nonreactive`): counted up and down rather than saved and
    /// restored, one field's spill and reload fewer a run. A computed's
    /// rerun does not count (see `isComputing`): the refresh loop touches
    /// one field fewer a node.
    @exclusivity(unchecked) var autorunsRunning = 0
    /// Nesting depth of graph operations; end-of-batch flushes run when it returns to 0.
    @usableFromInline @exclusivity(unchecked) var operationDepth = 0
    /// A flush is running on the lock's holder.
    @exclusivity(unchecked) var flushDepth = 0
    /// Runtimes with `.endOfBatch` scheduling that have invalidated computations.
    @usableFromInline @exclusivity(unchecked) var reactorsAwaitingFlush = RetainingQueue<Reactor>()
    /// Copies of subscriber lists being notified (a stack shared by nested writes).
    @exclusivity(unchecked) var scratch: [Computation] = []
    /// The innermost computed being derived; each links to the one it interrupted
    /// (`callerOnChain`), which names the members of a cycle.
    @exclusivity(unchecked) var derivingTop: Unmanaged<Computation>?
    /// Parts of computeds released during an operation, kept until it ends:
    /// the frames refreshing them hold no references (see `Computed`).
    @usableFromInline @exclusivity(unchecked) var released: [AnyObject] = []
    /// Traced signal deliveries only: the node whose value is being delivered
    /// (a subject, a bridge, an operator's stage), or 0 when unknown.
    @exclusivity(unchecked) var signalSource: UInt64 = 0
    /// True when ``signalSource`` is a stage, whose sends its receiver records as its `changed`.
    @exclusivity(unchecked) var signalSourceIsStage = false
    /// Traced signal deliveries only: what sent the value the running stage
    /// handles, kept by a time operator as the cause of its later send.
    @exclusivity(unchecked) var signalInput: UInt64 = 0
    /// Traced only: what the code running on the lock's holder produces
    /// derives from a secret (see `Graph+Secrets.swift`).
    @exclusivity(unchecked) var producesSecret = false
    /// Traced runs only: the running computation declassifies what it derives
    /// (`reveals: true`): the secrets it reads do not make its products secret.
    @exclusivity(unchecked) var runReveals = false
    /// Traced runs with values only: the body of the action running read a
    /// secret (see `Graph+Secrets.swift`).
    @exclusivity(unchecked) var actionReadSecret = false
    /// Traced runs only: the rerun the refresh loop starts next has its begin
    /// recorded already, with the end of the run that made it dirty
    /// (`Computation.traceSoleReaderInvalidation`).
    @exclusivity(unchecked) var rerunBeganRecorded = false
    /// Traced flushes only: the autorun whose rerun the flush begins next
    /// (its id; 0 for none) has its begin recorded already, with the end of
    /// the run before it (`Computation.traceRunEnd(flushHead:)`), by the
    /// tracer of the box at `rerunBegunBy`. A rerun that begins untraced
    /// leaves them: a later one checks the box, and boxes are never freed.
    @exclusivity(unchecked) var rerunBegun: UInt64 = 0
    @exclusivity(unchecked) var rerunBegunBy: UnsafeMutableRawPointer?

    /// Runs `body` as one graph operation: with the lock held, and followed by
    /// the end-of-batch flushes it made necessary when it is the outermost one.
    @inlinable
    func operation<R>(_ body: () throws -> R) rethrows -> R {
        let me = GraphLock.currentThread
        if lock.isHeld(by: me) {
            // Nested in an operation (a read inside a computation): the depth
            // cannot return to 0 here, so there is nothing to count or to end.
            if operationDepth > 0 { return try body() }
            return try counted(body)
        }
        lock.acquire(me)
        defer { lock.release() }
        return try counted(body)
    }

    /// Runs `body` one operation deeper; lock held.
    @inlinable
    func counted<R>(_ body: () throws -> R) rethrows -> R {
        operationDepth &+= 1
        defer {
            operationDepth &-= 1
            if operationDepth == 0 && (!reactorsAwaitingFlush.isEmpty || !released.isEmpty) { endOperation() }
        }
        return try body()
    }

    /// The outermost operation ends: runs the end-of-batch flushes, then lets
    /// go of what was released during it.
    @usableFromInline
    func endOperation() {
        flushAwaitingReactors()
        while !released.isEmpty {
            // Their deinits may run operations that release more.
            let dropped = released
            released = []
            withExtendedLifetime(dropped) {}
        }
    }

    /// A computation is running, even inside `nonreactive` (Tracker's
    /// `inCompute`): an autorun, or a computed deriving its value, which is
    /// on the `derivingTop` chain (every computed being refreshed is, from
    /// the innermost down; the others on it are checking their sources).
    @inline(__always)
    var isComputing: Bool {
        autorunsRunning > 0 || (derivingTop != nil && chainDerives())
    }

    /// True if a computed on the `derivingTop` chain is deriving. Out of
    /// line: only a flush or a read of a secret inside a refresh walks it.
    @inline(never)
    func chainDerives() -> Bool {
        var cursor = derivingTop
        while let computed = cursor {
            let (deriving, caller) = computed._withUnsafeGuaranteedRef { ($0.isDeriving, $0.callerOnChain) }
            if deriving { return true }
            cursor = caller
        }
        return false
    }

    /// Keeps `objects` alive until the outermost operation ends, if one is running.
    func keepUntilOperationEnds(_ objects: AnyObject...) {
        guard operationDepth > 0 else { return }
        released.append(contentsOf: objects)
    }

    /// The current computation as a strong reference (for the rarer paths).
    /// Nil in a `nonreactive` block or an action's body even while a run that
    /// records values keeps itself current there to follow secrets.
    var currentComputation: Computation? {
        guard let computation = current?.takeUnretainedValue(), !computation.runTracing.isUntracked else { return nil }
        return computation
    }

    /// Runs `body` with no current computation (callbacks the runtime runs;
    /// `Reactor.nonreactive` follows secrets, see `Graph+Secrets.swift`).
    func nonreactive<R>(_ body: () throws -> R) rethrows -> R {
        let previous = current
        current = nil
        defer { current = previous }
        return try body()
    }

    @inline(__always)
    func flushAwaitingReactors() {
        // Not inside a computation or a flush: those finish their own work.
        // No computed derives here: every refresh runs inside an operation,
        // and this one is the outermost, ending.
        guard flushDepth == 0 && autorunsRunning == 0 else { return }
        operationDepth &+= 1
        defer { operationDepth &-= 1 }
        while let entry = reactorsAwaitingFlush.popLast() {
            entry._withUnsafeGuaranteedRef { reactor in
                // Skip a runtime flushed by hand since it was queued here.
                if reactor.willFlush { reactor.runFlush() }
            }
            entry.release()
        }
    }
}

/// The process-wide graph.
@usableFromInline
let graph = Graph()
