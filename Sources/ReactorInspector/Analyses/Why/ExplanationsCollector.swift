import ReactorTraceFormat

/// Collects, in one pass, what `why` prints for every computation at once
/// (``AllExplanations``): per target (each computation's name and `#id`), what
/// a ``WhyCollector`` explaining that target alone collects.
///
/// Memory grows with distinct chain shapes, not with events or with
/// computations times chain length: a chain's shape (its steps without
/// arguments, values or times, as ``WhyCollector/StepKey`` compares them) is
/// interned in one trie, keyed by the shape of the chain before its last step,
/// and cached on each link, so each rerun costs a lookup per new link and each
/// target keeps only a count per shape id (with the gap's length of the first
/// chain of that shape, which its pattern shows) and its first runs with the
/// arguments and values their chains carry.
final class ExplanationsCollector {
    /// A step of a shape: the shape before it (-1: none) and what it did (``CauseLink/stepCode``,
    /// a gap's length left out).
    struct ShapeStep: Hashable {
        var parent: Int32
        var kind: Int64
        var detail: Int64
    }

    /// What a chain carries beyond its shape, per action and change step, root first.
    enum Extra {
        case call(ActionCall)
        case values(WhyValueChange?)
    }

    struct Entry {
        var timestamp: UInt64
        var node: UInt64
        var event: WhyEntry.Event
        var stopCause: InvalidationCause?
        var shape: Int32
        /// The gap's length when the chain was cut (``CauseLink/Step/elided(count:)``), else 0.
        var elided: Int
        var extras: [Extra]
    }

    struct Pattern {
        var count: Int
        /// The gap's length of the first chain of this shape (the one its pattern shows).
        let elided: Int
    }

    struct Target {
        var firstRuns = 0
        var reruns = 0
        var stops = 0
        var stopsByCause: [InvalidationCause: Int] = [:]
        var entries: [Entry] = []
        var omitted = 0
        var patterns: [Int32: Pattern] = [:]
        var ungrouped = 0
    }

    /// The most targets collected: beyond them a target is left out (``capped``), and `why` of it is a pass.
    static let maximumTargets = 20_000

    /// The most distinct chain shapes kept by default: beyond them the collector stops (``overflowed``),
    /// so that its memory stays bounded (about 200 MB) whatever the trace; `why` is then a pass of its own.
    static let maximumShapes = 1_000_000

    /// How many runs each target lists one by one.
    let limit: Int
    private(set) var shapeIndex: [ShapeStep: Int32] = [:]
    private(set) var shapes: [ShapeStep] = []
    private(set) var targets: [Target] = []
    private(set) var targetNames: [String] = []
    private var targetByName: [String: Int32] = [:]
    /// Per node position, the targets its runs count for.
    private var nodeTargets: [[Int32]] = []
    /// Whether a target was left out for ``maximumTargets``.
    private(set) var capped = false
    /// Whether the trace had more than ``shapeLimit`` chain shapes: nothing is collected after that.
    private(set) var overflowed = false

    /// The most distinct chain shapes this collector keeps.
    let shapeLimit: Int

    init(limit: Int, shapeLimit: Int = ExplanationsCollector.maximumShapes) {
        self.limit = limit
        self.shapeLimit = shapeLimit
    }

    /// The node at `node` (named `name`, id `id`) was created or named: from now on its runs count for its
    /// name and its `#id`, as a pass explaining either would match it then.
    func match(_ node: Int32, name: String, id: UInt64) {
        let position = Int(node)
        if nodeTargets.count <= position { nodeTargets.append(contentsOf: repeatElement([], count: position + 1 - nodeTargets.count)) }
        for target in [name, "#\(id)"] {
            guard let index = self.target(named: target), !nodeTargets[position].contains(index) else { continue }
            nodeTargets[position].append(index)
        }
    }

    private func target(named name: String) -> Int32? {
        if let known = targetByName[name] { return known }
        guard targets.count < Self.maximumTargets else {
            capped = true
            return nil
        }
        let index = Int32(targets.count)
        targetByName[name] = index
        targetNames.append(name)
        targets.append(Target())
        return index
    }

    /// The node at `node` ran or stopped: counted for each of its targets, as ``WhyCollector/record(_:stopCause:node:at:link:limit:)``.
    func record(_ event: WhyEntry.Event, stopCause: InvalidationCause? = nil, node: Int32, id: UInt64, at time: UInt64,
                link: CauseLink) {
        let position = Int(node)
        guard position < nodeTargets.count, !nodeTargets[position].isEmpty, !overflowed else { return }
        guard shapes.count + CauseLink.maximumDepth <= shapeLimit else {
            overflowed = true
            shapeIndex = [:]
            shapes = []
            targets = []
            return
        }
        let shape = shape(of: link)
        let elided = link.length > link.depth ? link.length - link.depth + 1 : 0
        var entry: Entry?
        for target in nodeTargets[position] {
            let index = Int(target)
            switch event {
            case .firstRun: targets[index].firstRuns += 1
            case .rerun: targets[index].reruns += 1
            case .stopped:
                targets[index].stops += 1
                if let stopCause { targets[index].stopsByCause[stopCause, default: 0] += 1 }
            }
            if targets[index].entries.count < limit {
                if entry == nil {
                    entry = Entry(timestamp: time, node: id, event: event, stopCause: stopCause, shape: shape,
                                  elided: elided, extras: Self.extras(of: link))
                }
                targets[index].entries.append(entry!)
            } else {
                targets[index].omitted += 1
            }
            if targets[index].patterns[shape] != nil {
                targets[index].patterns[shape]!.count += 1
            } else if targets[index].patterns.count < WhyCollector.maximumPatterns {
                targets[index].patterns[shape] = Pattern(count: 1, elided: elided)
            } else {
                targets[index].ungrouped += 1
            }
        }
    }

    /// The chain's shape id: interned once per link (chains share their links toward the root).
    func shape(of link: CauseLink) -> Int32 {
        if link.shapeID >= 0 { return link.shapeID }
        let parent = link.next.map { shape(of: $0) } ?? -1
        var code = link.stepCode
        if case .elided = link.step { code.detail = 0 }
        let step = ShapeStep(parent: parent, kind: code.kind, detail: code.detail)
        let id: Int32
        if let known = shapeIndex[step] {
            id = known
        } else {
            id = Int32(shapes.count)
            shapes.append(step)
            shapeIndex[step] = id
        }
        link.shapeID = id
        return id
    }

    private static func extras(of link: CauseLink) -> [Extra] {
        var extras: [Extra] = []
        var cursor: CauseLink? = link
        while let current = cursor {
            switch current.step {
            case let .action(call): extras.append(.call(call))
            case let .changed(_, values): extras.append(.values(values))
            default: break
            }
            cursor = current.next
        }
        return extras.reversed()
    }
}
