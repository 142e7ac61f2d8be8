import ReactorTraceFormat

/// One link of a causal chain as the profile follows it while streaming:
/// action → changed → invalidated → reran, each step pointing at the one
/// before. Chains share their prefixes, so following every rerun's cause
/// costs one small object per step, and long self-feeding chains are cut
/// (keeping their root) so memory stays bounded.
final class CauseStep {
    enum Link {
        case action(store: UInt64, name: String, arguments: String)
        case changed(dependency: UInt64)
        case invalidated(computation: UInt64, cause: InvalidationCause)
        case reran(computation: UInt64)
        case elided
    }

    /// Chains longer than this are cut to root → … → newest.
    static let maximumLength = 24

    let link: Link
    let previous: CauseStep?
    /// The action invocation at the root of the chain, which is charged for the reruns it causes.
    let invocation: ActionInvocation?
    let length: Int
    /// The chain's first step; nil when this step is the root.
    private let rootStep: CauseStep?

    /// A chain's first step.
    init(root link: Link, invocation: ActionInvocation? = nil) {
        self.link = link
        self.previous = nil
        self.invocation = invocation
        self.length = 1
        self.rootStep = nil
    }

    private init(link: Link, previous: CauseStep) {
        self.link = link
        self.previous = previous
        self.invocation = previous.invocation
        self.length = previous.length + 1
        self.rootStep = previous.root
    }

    /// The chain's first step.
    var root: CauseStep { rootStep ?? self }

    /// `self` followed by `link`; a chain at the maximum length keeps only its root, a gap and the new link.
    func appending(_ link: Link) -> CauseStep {
        if length >= Self.maximumLength {
            let gap = CauseStep(link: .elided, previous: root)
            return CauseStep(link: link, previous: gap)
        }
        return CauseStep(link: link, previous: self)
    }

    /// The links from the root to this step.
    var links: [Link] {
        var result: [Link] = []
        var step: CauseStep? = self
        while let current = step {
            result.append(current.link)
            step = current.previous
        }
        return result.reversed()
    }
}
