
/// Misuse and errors a runtime reports through ``Reactor/issueHandler`` instead
/// of crashing. Cases may grow; each carries what a user needs to act.
public enum ReactorIssue {
    /// `flush()` was called while a flush was running; the call was ignored.
    case nestedFlush
    /// `flush()` was called inside a computation; the call was ignored.
    case flushInsideComputation
    /// A computation threw and had no `onError` handler.
    case uncaughtError(any Error, computation: Computation)
    /// A computation kept invalidating itself within one flush; it was stopped
    /// after `reruns` runs.
    case runaway(computation: Computation, reruns: Int)
    /// A computed value read itself, directly or through others; `names` lists
    /// the computeds on the cycle, starting and ending with the same one.
    case cycle(names: [String])
    /// A store with `requireActions` had its state written outside an action.
    case writeOutsideAction(store: String, property: String)
    /// `Reactor.onInvalidate` was called with no current computation; ignored.
    case noCurrentComputation
    /// A thread waited longer than ``Reactor/lockWaitThreshold`` for the
    /// runtime's lock, held by a thread running the autorun with id `holder`
    /// and name `holderName` (0 and nil: outside any autorun). It goes on waiting: if the holder blocks on
    /// work that needs the lock, this is a deadlock. Reported to the trace and
    /// ``Reactor/lockWaitHandler``, not to a runtime's `issueHandler`.
    case lockWait(holder: UInt64, holderName: String?, waited: Duration)
}

extension ReactorIssue: CustomStringConvertible {
    /// One line saying what happened and what to do about it.
    public var description: String {
        switch self {
        case .nestedFlush:
            return "flush() called while already flushing; the call was ignored"
        case .flushInsideComputation:
            return "flush() called inside a computation; the call was ignored"
        case let .uncaughtError(error, computation):
            return "computation '\(computation.name ?? "#\(computation.id)")' threw \(error); pass onError: to autorun to handle it"
        case let .runaway(computation, reruns):
            return "computation '\(computation.name ?? "#\(computation.id)")' reran \(reruns) times in one flush and was stopped; it invalidates itself on every run"
        case let .cycle(names):
            return "computed values form a cycle: \(names.joined(separator: " -> "))"
        case let .writeOutsideAction(store, property):
            return "\(store).\(property) was written outside an action of store '\(store)', which requires actions"
        case .noCurrentComputation:
            return "onInvalidate called with no current computation; the call was ignored"
        case let .lockWait(holder, holderName, waited):
            let holding = holder == 0 ? "a thread outside any autorun"
                : "the thread running computation '\(holderName ?? "#\(holder)")'"
            return "a thread has waited \(waited) for the runtime's lock, held by \(holding); "
                + "if that computation blocks on work that uses Reactor, this is a deadlock"
        }
    }

    var traceKind: TraceIssueKind {
        switch self {
        case .nestedFlush: .nestedFlush
        case .flushInsideComputation: .flushInsideComputation
        case .uncaughtError: .uncaughtError
        case .runaway: .runaway
        case .cycle: .cycle
        case .writeOutsideAction: .writeOutsideAction
        case .noCurrentComputation: .misuse
        case .lockWait: .lockWait
        }
    }

    var traceNode: UInt64 {
        switch self {
        case let .uncaughtError(_, computation), let .runaway(computation, _): computation.id
        case let .lockWait(holder, _, _): holder
        default: 0
        }
    }
}
