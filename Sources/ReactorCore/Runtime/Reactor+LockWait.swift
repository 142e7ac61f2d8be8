import Synchronization

extension Reactor {
    /// How long a thread may wait for the runtime's lock before a `.lockWait`
    /// issue is reported (1 s by default; `.zero` turns the check off). Process-wide,
    /// like the lock. Only a thread that finds the lock taken pays for the check.
    public static var lockWaitThreshold: Duration {
        get { .nanoseconds(lockWaitThresholdNanoseconds.load(ordering: .relaxed)) }
        set {
            let (seconds, attoseconds) = newValue.components
            let value = seconds >= Int64.max / 1_000_000_000 ? Int64.max : seconds * 1_000_000_000 + attoseconds / 1_000_000_000
            lockWaitThresholdNanoseconds.store(max(0, value), ordering: .relaxed)
        }
    }

    /// Receives `.lockWait` issues, on the waiting thread, which does not hold
    /// the lock (so these do not go to a runtime's `issueHandler`, which is read
    /// under it). The default prints one line to stderr. Must not block.
    public static var lockWaitHandler: @Sendable (ReactorIssue) -> Void {
        get { lockWaitHandlerSlot.load(ordering: .acquiring).takeUnretainedValue().handler }
        set {
            // The replaced box is never released (a waiting thread may be calling
            // its handler), as replaced tracers are kept: handlers are set rarely.
            _ = lockWaitHandlerSlot.exchange(.passRetained(LockWaitHandlerBox(newValue)), ordering: .acquiringAndReleasing)
        }
    }

    /// Reports a lock wait to the trace and ``lockWaitHandler``.
    static func reportLockWait(_ issue: ReactorIssue) {
        withTracer { $0.issue(issue.traceKind, node: issue.traceNode, message: issue.description) }
        lockWaitHandler(issue)
    }
}

/// Holds the lock-wait handler behind one pointer, so that reading it is one
/// atomic load that ThreadSanitizer sees (it does not see inside `Mutex`).
private final class LockWaitHandlerBox: Sendable {
    let handler: @Sendable (ReactorIssue) -> Void
    init(_ handler: @escaping @Sendable (ReactorIssue) -> Void) { self.handler = handler }
}

private let lockWaitHandlerSlot = Atomic<Unmanaged<LockWaitHandlerBox>>(
    .passRetained(LockWaitHandlerBox { Reactor.printIssue($0) }))
