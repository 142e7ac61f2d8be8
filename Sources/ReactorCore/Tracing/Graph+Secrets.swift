// Secrets follow the data while a tracer records values. A traced run (an autorun's or a
// computed's) that reads a secret node or a `Redacted` value produces secrets:
// the computed's value, the writes and sends it makes, the arguments of the
// actions it calls and whatever the values it sends are delivered into. The
// state lives in the graph, guarded by its lock: only the lock's holder runs
// computations and delivers values. Only the runs that record values do any
// of this: a node update reads the tracer slot once and runs the copy of its
// code for what it records (see `RunTracing`), so untraced code and traced
// code without values pay nothing for it, and a node's secrecy is known from
// the moment a tracer with values is installed.

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

    /// A traced run that records values read a secret (lock held).
    @usableFromInline @inline(never)
    func noteSecretRead() {
        if !runReveals { producesSecret = true }
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

    /// `Redacted.value` was read: a run that records values, reading it on
    /// this thread (in a `nonreactive` block or an action's body too), takes
    /// note as of a secret node's read.
    @usableFromInline @inline(never)
    func noteRedactedRead() {
        guard lock.isHeldByCurrentThread, isComputing, let current else { return }
        current._withUnsafeGuaranteedRef { computation in
            switch computation.runTracing {
            case .untraced, .traced: break
            case .tracedWithValues: noteSecretRead()
            case .untrackedWithValues, .actionWithValues: noteUntrackedSecretRead(in: computation)
            }
        }
    }

    /// A secret read where `computation`'s run reads without tracking: in a
    /// `nonreactive` block it is the run's; in an action's body it is the
    /// action's, handed to the run only with the action's result.
    @usableFromInline @inline(never)
    func noteUntrackedSecretRead(in computation: Computation) {
        if case .actionWithValues = computation.runTracing {
            actionReadSecret = true
        } else {
            noteSecretRead()
        }
    }

    /// `Reactor.nonreactive`: with no current computation, except in a run
    /// that records values, which stays current, its reads untracked, to follow
    /// the secrets `body` reads.
    func nonreactiveFollowingSecrets<R>(_ body: () throws -> R) rethrows -> R {
        guard let running = current else { return try body() }
        switch running._withUnsafeGuaranteedRef({ $0.runTracing }) {
        case .untraced, .traced: return try nonreactive(body)
        case .untrackedWithValues, .actionWithValues: return try body()
        case .tracedWithValues: return try untracked(running.takeUnretainedValue(), body)
        }
    }

    @inline(never)
    private func untracked<R>(_ running: Computation, _ body: () throws -> R) rethrows -> R {
        running.runTracing = .untrackedWithValues
        defer { running.runTracing = .tracedWithValues }
        return try body()
    }

    /// Runs an action's body: as `nonreactive`, except in a run that records
    /// values. There, the body's writes are secrets if the run has produced
    /// secrets so far (its arguments may hold them), and the secrets the body
    /// reads are not the run's, unless the action returns a value (or throws).
    func actionBody<R>(_ body: () throws -> R) rethrows -> R {
        guard let running = current else { return try body() }
        let computation = running.takeUnretainedValue()
        guard computation.runTracing.followsSecrets else { return try nonreactive(body) }
        return try actionBodyFollowingSecrets(computation, body)
    }

    @inline(never)
    private func actionBodyFollowingSecrets<R>(_ running: Computation, _ body: () throws -> R) rethrows -> R {
        let outerTracing = running.runTracing
        let outerActionReadSecret = actionReadSecret
        running.runTracing = .actionWithValues
        actionReadSecret = false
        var handsBack = R.self != Void.self
        defer {
            let readSecret = actionReadSecret
            running.runTracing = outerTracing
            actionReadSecret = outerActionReadSecret
            if readSecret && handsBack {
                switch outerTracing {
                case .tracedWithValues: noteSecretRead()
                case .untrackedWithValues, .actionWithValues: noteUntrackedSecretRead(in: running)
                case .untraced, .traced: break
                }
            }
        }
        do {
            return try body()
        } catch {
            // The error goes back to the run: it may hold what the body read.
            handsBack = true
            throw error
        }
    }
}
