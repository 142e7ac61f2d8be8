import ReactorTraceFormat

/// One step of a causal chain, linked to the step that caused it. Chains are
/// shared: each change, invalidation and run points at its cause, so the
/// builder keeps one pointer per node, not one per event. A chain longer than
/// ``CauseLink/maximumDepth`` keeps its newest steps and its root and drops the
/// middle, so memory stays bounded even when computations feed each other.
final class CauseLink {
    enum Step {
        case action(action: Int32, arguments: String, site: String?)
        case changed(node: Int32, values: WhyValueChange?)
        case invalidated(node: Int32, cause: InvalidationCause)
        case ran(node: Int32, firstRun: Bool)
        case unknown
        case elided(count: Int)
    }

    static let maximumDepth = 32

    private(set) var step: Step
    let next: CauseLink?
    /// How many links this chain holds (elided steps not counted).
    let depth: Int
    /// How many steps the full chain had.
    let length: Int
    private(set) unowned(unsafe) var rootLink: CauseLink?

    private init(step: Step, next: CauseLink?, depth: Int, length: Int) {
        self.step = step
        self.next = next
        self.depth = depth
        self.length = length
    }

    /// Records the call site of this link's action: the site event follows
    /// `actionBegan`, after the link was made and before anything links to it.
    func attachActionSite(_ site: String) {
        if case let .action(action, arguments, _) = step { step = .action(action: action, arguments: arguments, site: site) }
    }

    /// The first step of the chain (the root cause).
    var root: CauseLink { rootLink ?? self }

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
