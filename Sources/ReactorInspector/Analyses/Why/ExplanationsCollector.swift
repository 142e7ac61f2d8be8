import ReactorTraceFormat

/// Collects, in one pass, what `why` prints for every computation at once
/// (``AllExplanations``): per target (each computation's name and `#id`), what
/// a ``WhyCollector`` explaining that target alone collects.
///
/// Memory grows with distinct chain shapes, not with events or with
/// computations times chain length: a chain's shape (its steps without
/// arguments, values or times, as ``WhyCollector/StepKey`` compares them) is
/// interned in one table, keyed by the shape of the chain before its last step,
/// and cached on each link, so each rerun costs a lookup per new link.
///
/// Each run is counted once, in its node's slot: the targets its runs count for
/// then (its name and `#id`; a renamed node starts a new slot), shared by nodes
/// with the same targets. A slot keeps its counts, a count per shape (with the
/// gap's length of the first chain of that shape, which its pattern shows) and
/// its first runs with the arguments and values their chains carry, each
/// numbered in pass order; ``collected()`` merges a target's slots into what a
/// pass explaining it alone would have collected.
final class ExplanationsCollector {
    // Stored properties marked `@exclusivity(unchecked)`: one pass owns the collector on one thread, and
    // the per-run checks of its columns cost more than the interning they guard.
    /// A step of a shape: the shape before it (-1: none) and what it did (``CauseLink/stepCode``,
    /// a gap's length left out).
    struct ShapeStep: Hashable {
        var parent: Int32
        var kind: Int64
        var detail: Int64
    }

    /// A shape's child: its step (as ``shapeIndex`` keys it) and id.
    struct ShapeChild {
        var key: UInt64 = .max
        var child: Int32 = -1
    }

    /// A pattern and the slot it counts for.
    struct SlotPattern {
        var slot: Int32 = -1
        var pattern: Int32 = -1
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
        /// Its place among the runs the pass counted (merging slots keeps pass order).
        var sequence: Int
    }

    struct Pattern {
        var count: Int
        /// The gap's length of the first chain of this shape (the one its pattern shows).
        let elided: Int
    }

    /// What a pass explaining one target collects.
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

    /// The runs counted for one set of targets.
    struct Slot {
        let targets: [Int32]
        var firstRuns = 0
        var reruns = 0
        var stops = 0
        var stopsByCause: [InvalidationCause: Int] = [:]
        var entries: [Entry] = []
        /// Its patterns' positions in the collector's pattern columns, first met first.
        var patterns: [Int32] = []
        var ungrouped = 0

        init(targets: [Int32]) {
            self.targets = targets
        }

        var runs: Int { firstRuns + reruns + stops }
    }

    /// The most targets collected: beyond them a target is left out (``capped``), and `why` of it is a pass.
    static let maximumTargets = 20_000

    /// The most distinct chain shapes kept by default: beyond them the collector stops (``overflowed``),
    /// so that its memory stays bounded whatever the trace; `why` is then a pass of its own.
    static let maximumShapes = 1_000_000

    /// How many runs each target lists one by one.
    let limit: Int
    @exclusivity(unchecked) private var shapeIndex = WordPairTable()
    @exclusivity(unchecked) private(set) var shapes: [ShapeStep] = []
    private(set) var targetNames: [String] = []
    private var targetByName: [String: Int32] = [:]
    @exclusivity(unchecked) private var slots: [Slot] = []
    private var slotByTargets: [[Int32]: Int32] = [:]
    /// Per node position, the slot its runs count in (-1: none).
    @exclusivity(unchecked) private var nodeSlots: [Int32] = []
    /// Per (slot, shape), its position in the pattern columns.
    @exclusivity(unchecked) private var patternIndex = WordPairTable()
    @exclusivity(unchecked) private var patternCounts: [Int] = []
    @exclusivity(unchecked) private var patternShapes: [Int32] = []
    @exclusivity(unchecked) private var patternElided: [Int] = []
    /// The run that first followed each pattern (``Entry/sequence``).
    @exclusivity(unchecked) private var patternFirst: [Int] = []
    /// Per shape, the child interned under it last (``ShapeChild/key``: `UInt64.max`, none): a rerun's
    /// invalidation is followed by its run and a computed's run by its change, so the child asked for is
    /// almost always that one, found in this dense column instead of by a probe of ``shapeIndex`` (a cache miss).
    @exclusivity(unchecked) private var lastChild: [ShapeChild] = []
    /// Per shape, the pattern it was last counted in and that pattern's slot (-1: none): a run's shape ends
    /// at its node, whose runs count in one slot, so this finds its pattern without a probe of ``patternIndex``.
    @exclusivity(unchecked) private var lastPattern: [SlotPattern] = []
    /// Runs counted so far.
    @exclusivity(unchecked) private var sequence = 0
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
        if nodeSlots.count <= position { nodeSlots.append(contentsOf: repeatElement(-1, count: position + 1 - nodeSlots.count)) }
        let current = nodeSlots[position] >= 0 ? slots[Int(nodeSlots[position])].targets : []
        var targets = current
        for target in [name, "#\(id)"] {
            guard let index = self.target(named: target), !targets.contains(index) else { continue }
            targets.append(index)
        }
        guard targets.count != current.count else { return }
        if let known = slotByTargets[targets] {
            nodeSlots[position] = known
        } else {
            nodeSlots[position] = Int32(slots.count)
            slotByTargets[targets] = Int32(slots.count)
            slots.append(Slot(targets: targets))
        }
    }

    private func target(named name: String) -> Int32? {
        if let known = targetByName[name] { return known }
        guard targetNames.count < Self.maximumTargets else {
            capped = true
            return nil
        }
        let index = Int32(targetNames.count)
        targetByName[name] = index
        targetNames.append(name)
        return index
    }

    /// The node at `node` ran or stopped: counted once, in its slot, as ``WhyCollector/record(_:stopCause:node:at:link:limit:)``
    /// counts it for each of the slot's targets.
    func record(_ event: WhyEntry.Event, stopCause: InvalidationCause? = nil, node: Int32, id: UInt64, at time: UInt64,
                link: CauseLink) {
        let position = Int(node)
        guard position < nodeSlots.count, !overflowed else { return }
        let slot = Int(nodeSlots[position])
        guard slot >= 0 else { return }
        guard shapes.count + CauseLink.maximumDepth <= shapeLimit else {
            overflowed = true
            shapeIndex = WordPairTable()
            shapes = []
            lastChild = []
            lastPattern = []
            slots = []
            patternIndex = WordPairTable()
            patternCounts = []
            patternShapes = []
            patternElided = []
            patternFirst = []
            return
        }
        let shape = shape(of: link)
        let elided = link.length > link.depth ? link.length - link.depth + 1 : 0
        sequence += 1
        switch event {
        case .firstRun: slots[slot].firstRuns += 1
        case .rerun: slots[slot].reruns += 1
        case .stopped:
            slots[slot].stops += 1
            if let stopCause { slots[slot].stopsByCause[stopCause, default: 0] += 1 }
        }
        if slots[slot].entries.count < limit {
            slots[slot].entries.append(Entry(timestamp: time, node: id, event: event, stopCause: stopCause, shape: shape,
                                             elided: elided, extras: Self.extras(of: link), sequence: sequence))
        }
        let remembered = lastPattern[Int(shape)]
        if remembered.slot == Int32(slot) {
            patternCounts[Int(remembered.pattern)] += 1
        } else if let pattern = patternIndex.value(UInt32(slot), UInt64(shape)) {
            patternCounts[Int(pattern)] += 1
            lastPattern[Int(shape)] = SlotPattern(slot: Int32(slot), pattern: pattern)
        } else if slots[slot].patterns.count < WhyCollector.maximumPatterns {
            let pattern = Int32(patternCounts.count)
            patternIndex.insert(UInt32(slot), UInt64(shape), value: pattern)
            lastPattern[Int(shape)] = SlotPattern(slot: Int32(slot), pattern: pattern)
            patternCounts.append(1)
            patternShapes.append(shape)
            patternElided.append(elided)
            patternFirst.append(sequence)
            slots[slot].patterns.append(pattern)
        } else {
            slots[slot].ungrouped += 1
        }
    }

    /// The chain's shape id: interned once per link (chains share their links toward the root).
    func shape(of link: CauseLink) -> Int32 {
        if link.shapeID >= 0 { return link.shapeID }
        let parent = link.unretainedNext.map { $0._withUnsafeGuaranteedRef { shape(of: $0) } } ?? -1
        var code = link.stepCode
        if code.kind == CauseLink.gapKind { code.detail = 0 }
        // Kinds are 1...6 and details at most 41 bits (a node position and a cause): one word.
        let key = UInt64(bitPattern: code.kind) << 56 | UInt64(bitPattern: code.detail)
        let id: Int32
        if parent >= 0, lastChild[Int(parent)].key == key {
            id = lastChild[Int(parent)].child
        } else {
            if let known = shapeIndex.value(UInt32(bitPattern: parent), key) {
                id = known
            } else {
                id = Int32(shapes.count)
                shapes.append(ShapeStep(parent: parent, kind: code.kind, detail: code.detail))
                lastChild.append(ShapeChild())
                lastPattern.append(SlotPattern())
                shapeIndex.insert(UInt32(bitPattern: parent), key, value: id)
            }
            if parent >= 0 { lastChild[Int(parent)] = ShapeChild(key: key, child: id) }
        }
        link.shapeID = id
        return id
    }

    /// Per target (in ``targetNames`` order), what a pass explaining it alone collects (``collected(from:)``).
    func collected() -> [Target?] {
        slotsOfTargets().map(collected(from:))
    }

    /// Per target (in ``targetNames`` order), the slots its runs were counted in. Empty after ``overflowed``.
    func slotsOfTargets() -> [[Int32]] {
        guard !overflowed else { return [] }
        var slotsOfTarget = Array(repeating: [Int32](), count: targetNames.count)
        for (position, slot) in slots.enumerated() {
            for target in slot.targets { slotsOfTarget[Int(target)].append(Int32(position)) }
        }
        return slotsOfTarget
    }

    /// What a pass explaining a target alone collects, from the slots its runs were counted in; nil when
    /// it cannot be said exactly (nodes with more than ``WhyCollector/maximumPatterns`` shapes each, whose
    /// runs count for the target together: which of their shapes came first is not kept).
    func collected(from slots: [Int32]) -> Target? {
        merged(slots.map { self.slots[Int($0)] })
    }

    private func merged(_ slots: [Slot]) -> Target? {
        var target = Target()
        var runs = 0
        for slot in slots {
            target.firstRuns += slot.firstRuns
            target.reruns += slot.reruns
            target.stops += slot.stops
            target.stopsByCause.merge(slot.stopsByCause, uniquingKeysWith: +)
            runs += slot.runs
        }
        if slots.count == 1 {
            target.entries = slots[0].entries
            for pattern in slots[0].patterns.map(Int.init) {
                target.patterns[patternShapes[pattern]] = Pattern(count: patternCounts[pattern], elided: patternElided[pattern])
            }
            target.ungrouped = slots[0].ungrouped
        } else if slots.count > 1 {
            guard slots.allSatisfy({ $0.ungrouped == 0 }) else { return nil }
            target.entries = Array(slots.flatMap(\.entries).sorted { $0.sequence < $1.sequence }.prefix(limit))
            // Per shape, its count over the slots, from the slot that met it first.
            var byShape: [Int32: (count: Int, first: Int, elided: Int)] = [:]
            for pattern in slots.lazy.flatMap(\.patterns).map(Int.init) {
                let shape = patternShapes[pattern]
                if let known = byShape[shape] {
                    byShape[shape] = (known.count + patternCounts[pattern], min(known.first, patternFirst[pattern]),
                                      known.first < patternFirst[pattern] ? known.elided : patternElided[pattern])
                } else {
                    byShape[shape] = (patternCounts[pattern], patternFirst[pattern], patternElided[pattern])
                }
            }
            // A pass alone groups the first shapes it meets, up to its bound, and counts the rest as ungrouped.
            var grouped = 0
            for (shape, pattern) in byShape.sorted(by: { $0.value.first < $1.value.first }).prefix(WhyCollector.maximumPatterns) {
                target.patterns[shape] = Pattern(count: pattern.count, elided: pattern.elided)
                grouped += pattern.count
            }
            target.ungrouped = runs - grouped
        }
        target.omitted = runs - target.entries.count
        return target
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
