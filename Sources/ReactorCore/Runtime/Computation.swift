
/// Code that reruns when the data it read changes (Tracker's `Computation`).
///
/// Created by ``Reactor/autorun(_:onError:fileID:line:_:)``. A computation
/// records the dependencies it reads while it runs; when one changes, it is
/// invalidated, drops all its dependencies and is rerun at the next flush,
/// collecting them afresh.
public final class Computation: @unchecked Sendable {
    // @unchecked Sendable: every mutable field is guarded by the graph lock.

    // The fields a node update touches come first, in two cache lines.

    /// The process-wide graph, held here so that hot paths reach it without
    /// the lazy global's `swift_once` (a strong `let` is read with no retain).
    @usableFromInline let graph: Graph
    /// Bumped when a run begins and when the computation is invalidated: the
    /// links stamped with the current value are the live edges.
    @usableFromInline @exclusivity(unchecked) var epoch = 0
    /// What the current or last run read, in reading order (the engine's
    /// record of this reader; see `DependencyList`).
    @usableFromInline @exclusivity(unchecked) var dependencies = DependencyList()
    /// The dependency through which readers of a computed depend on it.
    @usableFromInline @exclusivity(unchecked) var derivedOutput: Unmanaged<Dependency>?
    /// While deriving or checking: the computed below it on the `derivingTop`
    /// chain (stale otherwise; only read for computeds on the chain).
    /// Unmanaged, as `Graph.derivingTop`: testing it for nil retains nothing.
    @exclusivity(unchecked) var callerOnChain: Unmanaged<Computation>?
    /// While checking: the link of the source being refreshed, where the
    /// walk over its sources goes on (see `refreshStaleDerived(traced:)`).
    @exclusivity(unchecked) var checkCursor: LinkPointer?
    /// While checking: `dependencies.generation` when the walk (re)started.
    @exclusivity(unchecked) var checkGeneration = 0
    /// The computation of a `Computed` (it derives a value on demand) rather than an autorun.
    @usableFromInline let isDerived: Bool
    @usableFromInline @exclusivity(unchecked) var derivedState = DerivedState.dirty
    /// Deriving its value, or checking its computed sources (never both:
    /// a check ends before its rederive begins): one byte, so that a read's
    /// test of a clean, idle computed is two compares, not three.
    @usableFromInline @exclusivity(unchecked) var activity = RefreshActivity.idle
    @usableFromInline @exclusivity(unchecked) var firstRun = true
    @usableFromInline @exclusivity(unchecked) var invalidated = false
    @usableFromInline @exclusivity(unchecked) var stopped = false
    /// What the current or last run records: reads in a traced one are
    /// recorded, and followed for secrets with values. Set when a run begins,
    /// so that a read (inlined into the caller's code) checks a field of the
    /// computation it has at hand rather than the tracer slot. Among the
    /// flags, where it takes no room of its own.
    @usableFromInline @exclusivity(unchecked) var runTracing = RunTracing.untraced
    /// An autorun one of whose computed inputs may have changed: the flush
    /// refreshes those computeds and reruns it only if one of them did.
    @exclusivity(unchecked) var checkPending = false
    /// In the reactor's pending queue.
    @exclusivity(unchecked) var queued = false
    /// How many entries of the reactor's pending queue refer to it (see `PendingQueue`).
    @exclusivity(unchecked) var pendingEntries: Int32 = 0
    @exclusivity(unchecked) var recomputing = false
    /// `!onInvalidateCallbacks.isEmpty`, among the flags: an invalidation
    /// reads one byte it has at hand rather than the array's count.
    @exclusivity(unchecked) var hasInvalidateCallbacks = false
    /// The `Computed` whose value this computation derives, unretained (it
    /// owns this computation); nil for an autorun and once that is gone.
    @usableFromInline @exclusivity(unchecked) var derived: UnsafeMutableRawPointer?
    /// Recomputes the value of `derived` and tells whether it replaced a
    /// previous value with another (false for the first value, which is no
    /// change: readers have nothing to invalidate) (see
    /// `Computed+Recompute.swift`). Graph lock held, this computation current.
    /// A `let`: a call through a `var` would retain the function's context.
    @usableFromInline let recomputeDerived: (Computation) -> Bool

    // Off the hot lines: read when the dependency list changes, or traced.

    /// The process-unique id under which this computation appears in traces.
    public let id: UInt64
    @exclusivity(unchecked) var onInvalidateCallbacks: [(Computation) -> Void] = [] {
        didSet { hasInvalidateCallbacks = !onInvalidateCallbacks.isEmpty }
    }

    /// The name given to `autorun`, or the derived `file:line` name.
    public let name: String?
    /// The runtime that reruns this computation.
    public let reactor: Reactor

    /// True during the first run, false afterwards.
    public var isFirstRun: Bool { graph.lock.withLock { firstRun } }
    /// True once invalidated and not yet rerun, and always once stopped. (For
    /// the computation of a computed value: its value must be recomputed.)
    public var isInvalidated: Bool { graph.lock.withLock { isInvalidatedOrDirty } }
    /// True once stopped: it will never rerun.
    public var isStopped: Bool { graph.lock.withLock { stopped } }

    @exclusivity(unchecked) var runsInFlush = 0
    @exclusivity(unchecked) var flushEpoch = 0
    let parentID: UInt64
    /// How its traced runs pass secrets on (see `Graph+Secrets.swift`).
    @exclusivity(unchecked) var secrecy: RunSecrecy
    /// An autorun's body, retained by hand: a run calls it through an
    /// unretained reference (see `compute(traced:)`) and `stop` lets it go.
    @exclusivity(unchecked) var body: Unmanaged<ComputationBody>?
    let onError: ((any Error) -> Void)?
    @exclusivity(unchecked) var onStopCallbacks: [(Computation) -> Void] = []

    @usableFromInline
    enum DerivedState { case clean, check, dirty }

    /// What a computed's refresh is doing with it (see `activity`).
    @usableFromInline
    enum RefreshActivity { case idle, deriving, checking }

    /// Running its body to derive its value.
    @inlinable
    var isDeriving: Bool { activity == .deriving }
    /// Refreshing its computed sources to learn whether it must recompute.
    @inlinable
    var isChecking: Bool { activity == .checking }

    /// `recomputeDerived` of an autorun, which derives no value.
    @usableFromInline
    static func recomputeNothing(_ computation: Computation) -> Bool { false }

    @usableFromInline
    init(reactor: Reactor, name: String?, parentID: UInt64, kind: TraceNodeKind,
         onError: ((any Error) -> Void)?, body: ((Computation) throws -> Void)?,
         recomputeDerived: @escaping (Computation) -> Bool = Computation.recomputeNothing,
         secrecy: RunSecrecy = .follows) {
        self.id = ReactorTracing.makeID()
        self.reactor = reactor
        self.graph = reactor.graph
        self.name = name
        self.parentID = parentID
        self.isDerived = kind == .computed
        self.onError = onError
        self.body = body.map { .passRetained(ComputationBody($0)) }
        self.recomputeDerived = recomputeDerived
        self.secrecy = secrecy
        withTracer { $0.nodeCreated(id, kind: kind, name: name ?? "", parent: parentID) }
    }

    deinit {
        // A waiter on the lock may be reading this computation's name (see GraphLock.runningComputation).
        graph.lock.waitForReaders()
        dependencies.deallocateSpares()
        body?.release()
    }

    /// `callerOnChain` as a reference (for tests and the rarer paths).
    var derivingCaller: Computation? { callerOnChain?.takeUnretainedValue() }

    /// An autorun that is invalidated, or a computed whose value must be recomputed:
    /// either way it gains no dependencies until it runs again.
    @usableFromInline
    var isInvalidatedOrDirty: Bool {
        isDerived ? (derivedState == .dirty && !isDeriving) || stopped : invalidated
    }

    var needsRecompute: Bool { invalidated && !stopped }

    // MARK: Public operations

    /// Invalidates this computation so that it reruns at the next flush.
    public func invalidate() {
        graph.operation { invalidate(cause: .explicit, source: 0) }
    }

    /// Stops this computation: it is invalidated and never reruns.
    public func stop() {
        graph.operation { stop(cause: .stop, source: 0) }
    }

    /// Registers `callback` to run when this computation is next invalidated,
    /// or runs it at once if it already is. Callbacks run non-reactively.
    public func onInvalidate(_ callback: @escaping (Computation) -> Void) {
        graph.operation {
            if isInvalidatedOrDirty {
                graph.nonreactive { callback(self) }
            } else {
                onInvalidateCallbacks.append(callback)
            }
        }
    }

    /// Registers `callback` to run when this computation is stopped, after its
    /// `onInvalidate` callbacks, or runs it at once if it already is stopped.
    public func onStop(_ callback: @escaping (Computation) -> Void) {
        graph.operation {
            if stopped {
                graph.nonreactive { callback(self) }
            } else {
                onStopCallbacks.append(callback)
            }
        }
    }

    /// Reruns this computation now if it is invalidated.
    public func flush() {
        graph.operation {
            if recomputing { return }
            recompute()
        }
    }

    /// Invalidates this computation and reruns it now.
    public func run() {
        graph.operation {
            invalidate(cause: .explicit, source: 0)
            if recomputing { return }
            recompute()
        }
    }
}

// MARK: - Internals (graph lock held)

extension Computation {
    func invalidate(cause: InvalidationCause, source: UInt64) {
        invalidate(cause: cause, source: source, traced: TraceEmit.isOn)
    }

    /// `invalidate(cause:source:)` within an update that has read the tracing
    /// flag already (see `Dependency.publishChange()`). `mayHaveCallbacks`:
    /// false where the caller found no `onInvalidate` callbacks just before
    /// (nothing between can add one), which spares checking again.
    /// `live`: the caller reached it through a live link with no user code
    /// run since it tested the link, so it is neither invalidated nor
    /// stopped (either makes every link stale: `dropEdges()`, and a stopped
    /// or invalidated computation gains no link) and it holds itself.
    @inline(__always)
    func invalidate(cause: InvalidationCause, source: UInt64, traced: Bool, mayHaveCallbacks: Bool = true,
                    live: Bool = false) {
        if isDerived {
            markDirty(cause: cause, source: source, traced: traced, mayHaveCallbacks: mayHaveCallbacks, live: live)
            return
        }
        assert(!live || (!invalidated && !stopped), "an invalidated or stopped autorun reached through a live link")
        if !live && invalidated { return }
        if !recomputing && (live || !stopped) { reactor.enqueue(self, linked: live) }
        invalidated = true
        if traced { TraceEmit.invalidated(computation: id, cause: cause, source: source) }
        dropEdges()
        if mayHaveCallbacks && hasInvalidateCallbacks { runInvalidateCallbacks() }
    }

    /// Tracker drops every edge on invalidation; here the links stay, stale,
    /// for the rerun to reuse. If it is running, the rest of the run keeps
    /// nothing (`Dependency.link` checks for invalidation when off the cursor).
    func dropEdges() {
        epoch &+= 1
        dependencies.cursor = nil
    }

    /// Runs and clears the `onInvalidate` callbacks, non-reactively. Callbacks
    /// cannot add callbacks: registered while invalidated, they run at once.
    @inline(never)
    func runInvalidateCallbacks() {
        let callbacks = onInvalidateCallbacks
        onInvalidateCallbacks = []
        for callback in callbacks {
            graph.nonreactive { callback(self) }
        }
    }

    func stop(cause: InvalidationCause, source: UInt64) {
        if stopped { return }
        // Already invalidated, it records no invalidation below: the stop's
        // cause is recorded all the same, so that the trace says what stopped it.
        let invalidatedBefore = isDerived ? derivedState == .dirty : invalidated
        if invalidatedBefore { withTracer { $0.invalidated(computation: id, cause: cause, source: source) } }
        if isDerived {
            markDirty(cause: cause, source: source)
            unlinkAllDependencies()  // also those read since an invalidation during its own run
            stopped = true
        } else {
            stopped = true
            invalidate(cause: cause, source: source)
            unlinkAllDependencies()  // it never reruns: let its sources go
        }
        withTracer { $0.nodeStopped(id) }
        let callbacks = onStopCallbacks
        onStopCallbacks = []
        for callback in callbacks {
            graph.nonreactive { callback(self) }
        }
        if !isDerived { releaseBody() }
    }

    /// Lets go of the body and what it captured; if an operation is running
    /// (the body itself may be running), when that ends.
    func releaseBody() {
        guard let body else { return }
        self.body = nil
        graph.keepUntilOperationEnds(body.takeRetainedValue())
    }

    /// A dependency this computation read has changed; `traced`: record the
    /// invalidation. `mayHaveCallbacks` as for `invalidate(cause:source:traced:mayHaveCallbacks:)`.
    /// `live` as for `invalidate(cause:source:traced:mayHaveCallbacks:live:)`.
    @inline(__always)
    func dependencyChanged(_ dependency: Dependency, traced: Bool, mayHaveCallbacks: Bool = true, live: Bool = false) {
        if !isDerived {
            invalidate(cause: .dependency, source: dependency.id, traced: traced, mayHaveCallbacks: mayHaveCallbacks,
                       live: live)
        } else {
            markDirty(cause: .dependency, source: dependency.id, traced: traced, mayHaveCallbacks: mayHaveCallbacks,
                      live: live)
        }
    }

    /// Runs the body now, tracking what it reads. Errors go to the caller.
    /// Reads the tracer slot once for the run (see `refreshStaleDerived()`).
    func compute() throws {
        if TraceEmit.isOn { return try computeTraced() }
        try compute(tracing: .untraced)
    }

    /// The traced copies of `compute()`, out of line; the choice between them
    /// is here, so that the untraced path above is the one of a build without
    /// secrets. `flushHead`: the index of this computation in its reactor's
    /// pending queue when the flush reruns it, else -1.
    @inline(never)
    func computeTraced(flushHead: Int = -1) throws {
        if TraceEmit.valuesOn { return try computeTracedWithValues(flushHead: flushHead) }
        try compute(tracing: .traced, flushHead: flushHead)
    }

    /// The copy of `compute()` that records values and follows secrets, out of line.
    @inline(never)
    func computeTracedWithValues(flushHead: Int) throws {
        try compute(tracing: .tracedWithValues, flushHead: flushHead)
    }

    @inline(__always)
    func compute(tracing: RunTracing, flushHead: Int = -1) throws {
        let traced = tracing.isTraced
        invalidated = false
        // `checkPending` is false: `recompute()` cleared it just before, and
        // a first run has never been queued.
        if traced {
            traceRunBegin()
            if tracing.followsSecrets { graph.beginSecretTracking(self) }
        }
        do {
            try runBody(tracing: tracing)
        } catch {
            // Written out on both paths: one shared end helper made the traced
            // `stress` sample ~4k instructions a write dearer (callgrind).
            if traced {
                if tracing.followsSecrets { graph.endSecretTracking(self) }
                withTracer { $0.rerunEnded(computation: id) }
            }
            throw error
        }
        if traced {
            if tracing.followsSecrets { graph.endSecretTracking(self) }
            traceRunEnd(flushHead: flushHead)
        }
    }

    /// The body's run within `compute(tracing:flushHead:)`, between the run's
    /// begin and end events.
    @inline(__always)
    func runBody(tracing: RunTracing) throws {
        let previous = graph.current
        let previousRunning = graph.lock.runningComputation.load(ordering: .relaxed)
        graph.current = .passUnretained(self)
        graph.autorunsRunning &+= 1
        graph.lock.runningComputation.store(UInt(bitPattern: Unmanaged.passUnretained(self).toOpaque()), ordering: .releasing)
        beginTracking(tracing: tracing)
        defer {
            finishTracking()
            graph.current = previous
            graph.autorunsRunning &-= 1
            graph.lock.runningComputation.store(previousRunning, ordering: .releasing)
        }
        // No retain of the closure's context: a body that stops its own
        // computation has it released only when the operation ends.
        if let body { try body._withUnsafeGuaranteedRef { try $0.run(self) } }
    }

    /// The flush's step for this computation (Tracker's `_recompute`), plus
    /// the glitch-free check of computed inputs. Reads the tracer slot once
    /// for the check and the rerun (a tracer installed by code the check
    /// runs takes effect at the next step, as for a refresh).
    func recompute(flushHead: Int = -1) {
        if TraceEmit.isOn { return recomputeTraced(flushHead: flushHead) }
        recompute(untraced: true, flushHead: flushHead)
    }

    /// The traced copy of `recompute(flushHead:)`, out of line: the check and
    /// the rerun each choose their traced copy (with or without values).
    @inline(never)
    func recomputeTraced(flushHead: Int) {
        recompute(untraced: false, flushHead: flushHead)
    }

    @inline(__always)
    func recompute(untraced: Bool, flushHead: Int) {
        recomputing = true
        defer { recomputing = false }
        if checkPending && !invalidated && !stopped {
            checkPending = false
            if untraced {
                refreshDerivedDependencies { $0.refreshStaleDerivedUntraced() }
            } else {
                refreshDerivedDependencies()
            }
        }
        checkPending = false
        guard needsRecompute else { return }
        do {
            if untraced {
                try compute(tracing: .untraced)
            } else if TraceEmit.valuesOn {
                try computeTracedWithValues(flushHead: flushHead)
            } else {
                // Inline (not `computeTraced`): a flush's traced rerun is
                // one frame, not two.
                try compute(tracing: .traced, flushHead: flushHead)
            }
        } catch {
            handleRunError(error)
        }
    }

    /// Hands an error thrown by a rerun to `onError`, or reports it. Out of
    /// line: inlined into the flush, its setup would run on every rerun.
    @inline(never)
    func handleRunError(_ error: any Error) {
        if let onError {
            onError(error)
        } else {
            reactor.report(.uncaughtError(error, computation: self))
        }
    }
}
