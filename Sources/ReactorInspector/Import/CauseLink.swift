import ReactorTraceFormat

/// One step of a causal chain, linked to the step that caused it. Chains are
/// shared: each change, invalidation and run points at its cause, so the
/// importer keeps one pointer per node, not one per event. A chain that holds
/// ``CauseLink/maximumDepth`` links is cut when it grows: the new step keeps
/// the root and a gap standing for the steps in between (docs/METRICS.md,
/// "Causes"), so memory stays bounded even when computations feed each other.
final class CauseLink {
    enum Step {
        /// One call of a store action (its identity, ordinal, arguments and call site).
        case action(ActionCall)
        case changed(node: Int32, values: WhyValueChange?)
        case invalidated(node: Int32, cause: InvalidationCause)
        case ran(node: Int32, firstRun: Bool)
        /// A rerun with no invalidation recorded since the computation's last run.
        case unknown
        case elided(count: Int)
    }

    /// What the step did, without which call or which values: its kind and node (an
    /// action by its name's position, not its call), so that two reruns caused the same
    /// way have the same shape (``RerunShapeCounter``; the dominant chain counts shapes).
    /// Made once, when the link is.
    let stepCode: (kind: Int64, detail: Int64)

    private static func code(of step: Step) -> (kind: Int64, detail: Int64) {
        switch step {
        case let .action(call): (1, Int64(call.action))
        case let .changed(node, _): (2, Int64(node))
        case let .invalidated(node, cause): (3, Int64(node) << 8 | Int64(cause.rawValue))
        case let .ran(node, firstRun): (4, Int64(node) << 1 | (firstRun ? 1 : 0))
        case .unknown: (5, 0)
        case let .elided(count): (gapKind, Int64(count))
        }
    }

    /// The chain's shape in the pass's ``ExplanationsCollector`` (-1: not interned yet).
    @exclusivity(unchecked) var shapeID: Int32 = -1
    /// The chain's shape in the pass's ``RerunShapeCounter``, which tells gaps of different
    /// lengths apart (-1: not interned yet).
    @exclusivity(unchecked) var profileShapeID: Int32 = -1

    /// ``stepCode``'s kind of a gap (``Step/elided(count:)``).
    static let gapKind: Int64 = 6

    /// The most links a chain holds; the next step cuts it to root → gap → step.
    static let maximumDepth = 32

    let step: Step
    let next: CauseLink?
    /// `next`, walked without retaining each link (interning a shape): `next` holds it.
    let unretainedNext: Unmanaged<CauseLink>?
    /// How many links this chain holds (a gap counts as one).
    let depth: Int
    /// How many steps the full chain had.
    let length: Int
    @exclusivity(unchecked) private(set) unowned(unsafe) var rootLink: CauseLink?

    private init(step: Step, next: CauseLink?, depth: Int, length: Int) {
        self.step = step
        self.next = next
        unretainedNext = next.map(Unmanaged.passUnretained)
        self.depth = depth
        self.length = length
        stepCode = Self.code(of: step)
    }

    /// The first step of the chain (the root cause).
    var root: CauseLink { rootLink ?? self }

    /// The action call the chain starts at, if its root is one: the call
    /// charged with the runs the chain causes.
    var rootCall: ActionCall? {
        if case let .action(call) = root.step { return call }
        return nil
    }

    /// A step caused by `previous` (nil: a root).
    static func make(_ step: Step, after previous: CauseLink?) -> CauseLink {
        guard let previous else {
            return CauseLink(step: step, next: nil, depth: 1, length: 1)
        }
        let root = previous.root
        if previous.depth >= maximumDepth {
            let elided = CauseLink(step: .elided(count: previous.length - 1), next: root, depth: 2, length: previous.length)
            elided.rootLink = root
            let link = CauseLink(step: step, next: elided, depth: 3, length: previous.length + 1)
            link.rootLink = root
            return link
        }
        let link = CauseLink(step: step, next: previous, depth: previous.depth + 1, length: previous.length + 1)
        link.rootLink = root
        return link
    }

    /// The steps from the root to this one.
    var stepsFromRoot: [Step] {
        var steps: [Step] = []
        steps.reserveCapacity(depth)
        var cursor: CauseLink? = self
        while let link = cursor {
            steps.append(link.step)
            cursor = link.next
        }
        return steps.reversed()
    }
}
