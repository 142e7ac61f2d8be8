/// One edge of the graph: `computation` read `dependency` during its current run.
///
/// A link sits in two intrusive doubly linked lists at once, the dependency's
/// subscribers and the computation's dependencies, so adding, removing and
/// walking edges allocates nothing and touches no reference counts. Links are
/// owned by their computation: unlinked ones go to its free list and are reused
/// by the next run, so a steady-state rerun allocates nothing.
@usableFromInline
struct Link {
    @usableFromInline unowned(unsafe) var dependency: Dependency
    @usableFromInline unowned(unsafe) var computation: Computation
    @usableFromInline var previousSubscriber: LinkPointer?
    @usableFromInline var nextSubscriber: LinkPointer?
    @usableFromInline var previousDependency: LinkPointer?
    @usableFromInline var nextDependency: LinkPointer?
}

@usableFromInline
typealias LinkPointer = UnsafeMutablePointer<Link>
