import ReactorTraceFormat

/// How many times a computation was invalidated, by cause.
///
/// Invalidations by a dependency are also counted per edge, in
/// ``TraceEdge/invalidations``, which tells which dependency it was.
public struct InvalidationCounts: Sendable, Equatable {
    /// A dependency it read changed.
    public var byDependency = 0
    /// Its parent computation was invalidated (which stops it).
    public var byParent = 0
    /// `invalidate()` or `run()` was called on it.
    public var explicit = 0
    /// `stop()` was called on it.
    public var byStop = 0
    /// The flush stopped it as a runaway.
    public var byRunaway = 0
    /// Its first run threw, which stopped it.
    public var byError = 0

    /// No invalidations.
    public init() {}

    /// All invalidations.
    public var total: Int { byDependency + byParent + explicit + byStop + byRunaway + byError }

    /// Invalidations that stopped it (by its parent, `stop()`, runaway or error).
    public var stops: Int { byParent + byStop + byRunaway + byError }

    /// Counts one invalidation.
    public mutating func count(_ cause: InvalidationCause) {
        switch cause {
        case .dependency: byDependency += 1
        case .parent: byParent += 1
        case .explicit: explicit += 1
        case .stop: byStop += 1
        case .runaway: byRunaway += 1
        case .error: byError += 1
        }
    }

    /// Adds another instance's counts.
    public mutating func merge(_ other: InvalidationCounts) {
        byDependency += other.byDependency
        byParent += other.byParent
        explicit += other.explicit
        byStop += other.byStop
        byRunaway += other.byRunaway
        byError += other.byError
    }
}
