/// The importer's slice tracker: per thread, the runs and actions open now,
/// innermost last, each with what its causes and its self time need. A run's
/// end pairs with the innermost open run of its computation (what was opened
/// inside it and never ended ends with it); an action's end with the
/// innermost open action of its store.
///
/// Internal storage of one builder: the per-thread stacks live in a
/// ``BuilderColumn``, updated in place; the owner calls ``deallocate()`` once.
struct SliceTracker {
    /// An open run or action.
    struct Frame {
        var isAction: Bool
        /// The computation running, or the action's store (node positions).
        var node: Int32
        /// The action's position, or -1 for a run.
        var action: Int32
        /// The action at the root of its cause, or -1.
        var root: Int32
        /// Its causal chain (only while explaining).
        var cause: CauseLink?
        var begin: UInt64
        /// Time spent in runs nested inside it.
        var nestedNanoseconds: UInt64 = 0
        var firstRun = false
    }

    /// A run or action just ended.
    struct Ended {
        var frame: Frame
        /// How many runs and actions enclosed it.
        var depth: Int
        /// How many ended with it, unfinished.
        var endedInside: Int
        var duration: UInt64
        /// Its duration minus the runs nested in it.
        var exclusive: UInt64
        /// Those, innermost first, each lasting until this one's end (docs/METRICS.md,
        /// "Unfinished runs").
        var inside: [Ended] = []
    }

    private var stacks = BuilderColumn<[Frame]>()

    /// How many threads have stacks (indexes `0..<threadCount`).
    var threadCount: Int { stacks.count }

    /// Makes room for `thread`.
    @inline(__always)
    mutating func see(thread: Int) {
        if thread >= stacks.count { stacks.extend(to: thread + 1, with: []) }
    }

    /// Replaces the runs and actions open on `thread` (an index's light point says which).
    mutating func replace(_ thread: Int, with frames: [Frame]) {
        see(thread: thread)
        stacks[thread] = frames
    }

    /// How many runs and actions are open on `thread`.
    @inline(__always)
    func depth(_ thread: Int) -> Int { stacks[thread].count }

    /// The innermost open run or action on `thread`, read in place (copying
    /// it would retain its cause).
    @inline(__always)
    func innermostRoot(_ thread: Int) -> Int32 {
        let count = stacks[thread].count
        return count > 0 ? stacks[thread][count - 1].root : -1
    }

    func innermostCause(_ thread: Int) -> CauseLink? { stacks[thread].last?.cause }

    func innermost(_ thread: Int) -> Frame? { stacks[thread].last }

    func frame(_ thread: Int, at depth: Int) -> Frame { stacks[thread][depth] }

    /// True if an action is open on `thread`.
    func hasOpenAction(_ thread: Int) -> Bool { stacks[thread].contains { $0.isAction } }

    /// The frames open on `thread`, outermost first.
    func open(_ thread: Int) -> [Frame] { thread < stacks.count ? stacks[thread] : [] }

    /// Runs begun and not ended, on every thread.
    var unfinishedRuns: Int { stacks.reduce(0) { $0 + $1.filter { !$0.isAction }.count } }

    @inline(__always)
    mutating func push(_ frame: Frame, thread: Int) {
        stacks[thread].append(frame)
    }

    /// Ends the innermost open run of `computation` on `thread` at `time`; nil if none is open.
    @inline(__always)
    mutating func endRun(_ computation: Int32, thread: Int, at time: UInt64) -> Ended? {
        // Almost always the innermost frame: popped without a search.
        let count = stacks[thread].count
        let frame: Frame
        let depth: Int
        if count > 0, !stacks[thread][count - 1].isAction, stacks[thread][count - 1].node == computation {
            frame = stacks[thread].removeLast()
            depth = count - 1
            // The usual case, kept short: no search, nothing ended inside.
            let duration = time &- frame.begin
            let exclusive = duration >= frame.nestedNanoseconds ? duration - frame.nestedNanoseconds : 0
            if depth > 0 { stacks[thread][depth - 1].nestedNanoseconds = stacks[thread][depth - 1].nestedNanoseconds.saturatingAdd(duration) }
            return Ended(frame: frame, depth: depth, endedInside: 0, duration: duration, exclusive: exclusive)
        } else {
            // Runs and actions opened inside it and never ended (a thrown body) end with it.
            guard let found = stacks[thread].lastIndex(where: { !$0.isAction && $0.node == computation }) else { return nil }
            frame = stacks[thread][found]
            depth = found
        }
        let (inside, enclosed) = Self.ending(stacks[thread][(depth + 1)...], at: time)
        stacks[thread].removeSubrange(depth...)
        let duration = time >= frame.begin ? time - frame.begin : 0
        let nested = frame.nestedNanoseconds.saturatingAdd(enclosed)
        let exclusive = duration >= nested ? duration - nested : 0
        let remaining = stacks[thread].count
        if remaining > 0 {
            stacks[thread][remaining - 1].nestedNanoseconds = stacks[thread][remaining - 1].nestedNanoseconds.saturatingAdd(duration)
        }
        return Ended(frame: frame, depth: depth, endedInside: count - 1 - depth, duration: duration, exclusive: exclusive,
                     inside: inside)
    }

    /// Ends `frames` (open, outermost first) at `time` as their own ends would, innermost
    /// first: a run's time goes into the run around it (an action's adds nothing). Returns
    /// them innermost first, and the time the outermost adds to what encloses them.
    static func ending(_ frames: ArraySlice<Frame>, at time: UInt64) -> (ended: [Ended], enclosed: UInt64) {
        var ended: [Ended] = []
        var inner: UInt64 = 0
        for index in frames.indices.reversed() {
            let frame = frames[index]
            let duration = time >= frame.begin ? time - frame.begin : 0
            if frame.isAction {
                ended.append(Ended(frame: frame, depth: index, endedInside: 0, duration: duration, exclusive: duration))
                inner = 0
                continue
            }
            let nested = frame.nestedNanoseconds.saturatingAdd(inner)
            ended.append(Ended(frame: frame, depth: index, endedInside: 0, duration: duration,
                               exclusive: duration >= nested ? duration - nested : 0))
            inner = duration
        }
        return (ended, inner)
    }

    /// Ends the innermost open action of `store` on `thread` at `time` (what
    /// is open inside it stays open); nil if none is open.
    mutating func endAction(_ store: Int32, thread: Int, at time: UInt64) -> Ended? {
        guard let depth = stacks[thread].lastIndex(where: { $0.isAction && $0.node == store }) else { return nil }
        let frame = stacks[thread].remove(at: depth)
        let duration = time >= frame.begin ? time - frame.begin : 0
        return Ended(frame: frame, depth: depth, endedInside: 0, duration: duration, exclusive: duration)
    }

    /// True if no action encloses depth `depth` on `thread`.
    func isOutermost(_ thread: Int, below depth: Int) -> Bool {
        !stacks[thread][..<depth].contains { $0.isAction }
    }

    /// Frees the stacks; the tracker must not be used after.
    func deallocate() { stacks.deallocate() }
}
