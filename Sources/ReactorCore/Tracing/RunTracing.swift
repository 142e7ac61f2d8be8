/// What a run records, read from the tracer slot once for a whole node update
/// (a refresh, an autorun's run): each value has its own copy of the update's
/// code, so that a run pays no per-read or per-run check for what it does not
/// record. Kept by the running computation in `runTracing`, where a read
/// (inlined into the caller's code) finds it without loading the slot.
@usableFromInline
enum RunTracing: UInt8 {
    /// No tracer: the code of a build with tracing compiled out.
    case untraced
    /// A tracer without values: events only.
    case traced
    /// A tracer that records values: events, values, and the secrets the run
    /// reads followed into what it produces (see `Graph+Secrets.swift`).
    case tracedWithValues
    /// A run with values inside `Reactor.nonreactive {}`: reads are neither
    /// dependencies nor events, but a secret read makes the run's products
    /// secret.
    case untrackedWithValues
    /// A run with values inside the body of an action it called: reads are
    /// neither dependencies nor events; a secret read makes the run's products
    /// secret only if the action hands a value back (see `Graph+Secrets.swift`).
    case actionWithValues

    // Matched by case, not compared with `==`: the synthesized `==` of an
    // internal enum is not inlinable, and a call to it in a read inlined into
    // another module costs more than the comparison.

    /// The events are recorded.
    @inlinable @inline(__always)
    var isTraced: Bool {
        if case .untraced = self { return false }
        return true
    }

    /// The events are recorded, without values (a read in order goes straight
    /// to `Dependency.linkTracedInPlace`).
    @inlinable @inline(__always)
    var isTracedWithoutValues: Bool {
        if case .traced = self { return true }
        return false
    }

    /// Values are recorded, so secrets are followed.
    @inlinable @inline(__always)
    var followsSecrets: Bool {
        switch self {
        case .untraced, .traced: return false
        case .tracedWithValues, .untrackedWithValues, .actionWithValues: return true
        }
    }

    /// In a `nonreactive` block or an action's body: reads are not recorded,
    /// and there is no current computation.
    @inlinable @inline(__always)
    var isUntracked: Bool {
        switch self {
        case .untrackedWithValues, .actionWithValues: return true
        case .untraced, .traced, .tracedWithValues: return false
        }
    }
}
