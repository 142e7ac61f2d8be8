/// One edge of the graph: `computation` read `dependency` during its current run.
///
/// A link sits in two intrusive doubly linked lists at once, the dependency's
/// subscribers and the computation's dependencies, so adding, removing and
/// walking edges allocates nothing and touches no reference counts. Links are
/// owned by their computation: unlinked ones go to its free list and are reused
/// by the next run, so a steady-state rerun allocates nothing.
///
/// A link outlives an invalidation: it stays in both lists, stale, until the
/// rerun reads its dependency again (and keeps it) or not (and unlinks it).
/// It is live, an edge in Tracker's sense, while `epoch` equals its
/// computation's `epoch`; see `Computation.beginTracking()`.
///
/// The two ends are `Unmanaged`: walking the lists reads them through
/// `_withUnsafeGuaranteedRef`, without retain/release pairs. The dependency
/// unlinks its subscribers before it goes away; the computation's links keep it
/// alive (see `Computation.makeLink`).
///
/// What the walks read comes first; the `previous` pointers only serve list
/// edits. Two fields copy what the walks would otherwise read one object
/// further on, so that each step of a walk down a chain of computeds is two
/// dependent loads rather than three: `source` (the dependency's
/// `derivedOwner`) for the check walk, `readerOutput` (the computation's
/// `derivedOutput`) for the push of "maybe stale". Both are fixed while the
/// link is in use (see `Computation.makeLink` and `Computed.deinit`).
@usableFromInline
struct Link {
    @usableFromInline var dependency: Unmanaged<Dependency>
    @usableFromInline var computation: Unmanaged<Computation>
    /// The computation's `epoch` when the link was last read.
    @usableFromInline var epoch = 0
    @usableFromInline var nextSubscriber: LinkPointer?
    @usableFromInline var nextDependency: LinkPointer?
    /// The computed whose output `dependency` is, if any (`dependency.derivedOwner`).
    @usableFromInline var source: Unmanaged<Computation>?
    /// The output of `computation`, if it is a computed's (`computation.derivedOutput`).
    @usableFromInline var readerOutput: Unmanaged<Dependency>?
    @usableFromInline var previousSubscriber: LinkPointer?
    @usableFromInline var previousDependency: LinkPointer?

    /// True if the edge exists for Tracker: read in the computation's current
    /// (or last) run, and the computation not invalidated since.
    @inlinable
    var isLive: Bool {
        computation._withUnsafeGuaranteedRef { $0.epoch } == epoch
    }
}

@usableFromInline
typealias LinkPointer = UnsafeMutablePointer<Link>

extension Unmanaged {
    /// True if this refers to `object` (identity, no reference counting).
    @inlinable
    func refers(to object: Instance) -> Bool {
        toOpaque() == Unmanaged.passUnretained(object).toOpaque()
    }
}
