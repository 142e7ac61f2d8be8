// Secrets follow the data while a tracer records values. A traced run (an autorun's or a
// computed's) that reads a secret node or a `Redacted` value produces secrets:
// the computed's value, the writes and sends it makes, the arguments of the
// actions it calls and whatever the values it sends are delivered into. The
// state lives in the graph, guarded by its lock: only the lock's holder runs
// computations and delivers values. Untraced code does none of this (a run
// checks the tracing flag once, and only its traced copy calls these hooks, the
// runs' only when values are on), so a node's secrecy is known from the moment
// a tracer with values is installed.

extension Graph {
    /// A traced run of `computation` begins: it produces secrets if it is
    /// marked `redacted`, else once it reads one (unless it `reveals`).
    @inline(__always)
    func beginSecretTracking(_ computation: Computation) {
        computation.secrecy.outerProducesSecret = producesSecret
        computation.secrecy.outerReveals = runReveals
        producesSecret = computation.secrecy.isMarked
        runReveals = computation.secrecy.reveals
    }

    /// The traced run of `computation` ends: the interrupted code goes on as it was.
    @inline(__always)
    func endSecretTracking(_ computation: Computation) {
        computation.secrecy.lastRunProducedSecret = producesSecret
        producesSecret = computation.secrecy.outerProducesSecret
        runReveals = computation.secrecy.outerReveals
    }

    /// The traced run of a computed ends: its value is secret from now on if
    /// the run produced secrets, clear if not.
    @inline(__always)
    func endSecretTracking(derivedBy computation: Computation) {
        computation.derivedOutput?._withUnsafeGuaranteedRef { $0.isSecret = producesSecret }
        endSecretTracking(computation)
    }

    /// A traced run read a secret node (lock held): followed while values are
    /// recorded (the runs' begin and end keep the state only then).
    @usableFromInline @inline(never)
    func noteSecretRead() {
        if !runReveals && TraceEmit.valuesOn { producesSecret = true }
    }

    /// Whether a value produced now, by code on this thread, is a secret:
    /// inside a run that read one, or a delivery of one. False on a thread
    /// that does not hold the lock (plain code, outside every run).
    var producesSecretOnThisThread: Bool {
        lock.isHeldByCurrentThread && producesSecret
    }

    /// Runs `body`, which delivers a value that is secret when `secret`: what
    /// it writes, sends and calls produces secrets. Lock held; traced only.
    func delivering<R>(secret: Bool, _ body: () throws -> R) rethrows -> R {
        guard secret, !producesSecret else { return try body() }
        producesSecret = true
        defer { producesSecret = false }
        return try body()
    }

    /// `Redacted.value` was read: a traced run reading it on this thread
    /// produces secrets from now on.
    @usableFromInline @inline(never)
    func noteRedactedRead() {
        guard lock.isHeldByCurrentThread, inCompute else { return }
        noteSecretRead()
    }
}
