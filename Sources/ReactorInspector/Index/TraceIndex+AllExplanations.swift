import ReactorTraceFormat

/// The section of every computation's explanation (``AllExplanations``): after the
/// snapshots' table, a flag, then the section's bytes: the names its steps use;
/// the steps (kind, name, node kind, and cause or first run); the shapes, each
/// how far back the shape before it is (one past its own position for none) and
/// its step; the targets, each with the position of its explanation; and the
/// explanations: each a string table (arguments, call sites, values, stop
/// causes), the counts, the runs listed one by one (time as a zigzag delta from
/// the run before, node, event, stop cause, shape, the gap's length when the
/// shape has one, and per action and change step its arguments or values) and
/// the patterns in shape order (count, shape as a delta, the gap's length).
extension AllExplanations {
    /// A decoded shape: its step (without arguments or values; a gap of length 0), the shape before it.
    struct Shape {
        var parent: Int32
        var step: WhyStep
        var hasGap: Bool
    }

    init(collector: ExplanationsCollector, computations: [TraceNode], node: (Int32) -> (String, TraceNodeKind),
         actionName: (Int32) -> String) {
        var names = IndexStringTable()
        func name(_ text: String) -> Int { names.position(of: text) }
        // Steps by what they show (kind, name, node kind, cause or first run): a shape is the shape
        // before it (as a distance back) and one of these.
        var steps = IndexFieldWriter()
        var stepCount = 0
        var stepPositions: [[Int]: Int] = [:]
        func step(_ fields: [Int]) -> Int {
            if let known = stepPositions[fields] { return known }
            stepPositions[fields] = stepCount
            for field in fields { steps.put(field) }
            stepCount += 1
            return stepCount - 1
        }
        var shapes = IndexFieldWriter()
        var hasGap: [Bool] = []
        hasGap.reserveCapacity(collector.shapes.count)
        for (position, shape) in collector.shapes.enumerated() {
            shapes.put(position - Int(shape.parent))
            var gap = shape.parent >= 0 && hasGap[Int(shape.parent)]
            switch shape.kind {
            case 1:
                shapes.put(step([0, name(actionName(Int32(shape.detail)))]))
            case 2:
                let (text, kind) = node(Int32(shape.detail))
                shapes.put(step([1, name(text), Int(kind.rawValue)]))
            case 3:
                let (text, kind) = node(Int32(shape.detail >> 8))
                shapes.put(step([2, name(text), Int(kind.rawValue), Int(shape.detail & 0xFF)]))
            case 4:
                let (text, kind) = node(Int32(shape.detail >> 1))
                shapes.put(step([3, name(text), Int(kind.rawValue), Int(shape.detail & 1)]))
            case 5:
                shapes.put(step([4]))
            default:
                shapes.put(step([5]))
                gap = true
            }
            hasGap.append(gap)
        }
        // Every computation's name and #id, unless the collector left targets out (then only those it has).
        var wanted = Set<String>()
        for computation in computations { wanted.insert(computation.name); wanted.insert("#\(computation.id)") }
        // A pass that met too many shapes keeps none: the section then says so, and `why` is a pass of its own.
        let slots = collector.slotsOfTargets()
        // Targets left out are not kept as empty: `why` of them is a pass.
        var leftOut = collector.capped || collector.overflowed
        var blobs: [[UInt8]] = []
        var blobPositions: [[UInt8]: Int] = [:]
        var kept: [(target: String, blob: Int)] = []
        func keep(_ target: String, _ explanation: ExplanationsCollector.Target) {
            let blob = Self.encode(explanation, hasGap: hasGap)
            let position = blobPositions[blob] ?? blobs.count
            if position == blobs.count {
                blobPositions[blob] = position
                blobs.append(blob)
            }
            kept.append((target, position))
        }
        // One target merged at a time: memory holds one target's explanation beside the collector's counts.
        for (position, target) in collector.targetNames.enumerated()
        where !collector.overflowed && wanted.remove(target) != nil {
            guard let explanation = collector.collected(from: slots[position]) else {
                leftOut = true
                continue
            }
            keep(target, explanation)
        }
        if !leftOut {
            for target in wanted.sorted() { keep(target, ExplanationsCollector.Target()) }
        }
        var directory = IndexFieldWriter()
        directory.put(kept.count)
        for (target, blob) in kept {
            directory.put(target)
            directory.put(blob)
        }
        var fields = IndexFieldWriter()
        names.put(into: &fields)
        fields.put(stepCount)
        fields.append(steps.bytes)
        fields.put(collector.shapes.count)
        fields.append(shapes.bytes)
        fields.append(directory.bytes)
        fields.put(blobs.count)
        for blob in blobs { fields.put(bytes: blob) }
        bytes = fields.bytes
    }


    private static func encode(_ target: ExplanationsCollector.Target, hasGap: [Bool]) -> [UInt8] {
        var strings = IndexStringTable()
        func string(_ text: String) -> Int { strings.position(of: text) }
        var body = IndexFieldWriter()
        body.putWhyCounts(firstRuns: target.firstRuns, reruns: target.reruns, stops: target.stops,
                          stopsByLabel: Dictionary(uniqueKeysWithValues: target.stopsByCause.map { ($0.key.label, $0.value) }),
                          strings: &strings)
        body.put(target.entries.count)
        var time: UInt64 = 0
        for entry in target.entries {
            body.put(Varint.zigzagDelta(entry.timestamp, from: time)); body.put(entry.node)
            time = entry.timestamp
            body.putWhyEvent(entry.event, stopCause: entry.stopCause)
            body.put(Int(entry.shape))
            if hasGap[Int(entry.shape)] { body.put(entry.elided) }
            // Most chains carry no arguments or values: one flag instead of one per change.
            let carries = entry.extras.contains { extra in
                if case let .values(values) = extra { return values != nil }
                return true
            }
            body.put(carries)
            for extra in entry.extras where carries {
                switch extra {
                case let .call(call):
                    body.put(string(call.arguments))
                    body.put(call.site != nil)
                    if let site = call.site { body.put(string(site)) }
                case let .values(values):
                    body.put(values != nil)
                    if let values {
                        body.put(values.previous != nil)
                        if let previous = values.previous { body.put(string(previous)) }
                        body.put(string(values.value))
                    }
                }
            }
        }
        body.put(target.omitted)
        // In shape order: the same target's bytes whatever order the pass's dictionary holds them in.
        let patterns = target.patterns.sorted { $0.key < $1.key }
        body.put(patterns.count)
        var previous: Int32 = -1
        for (shape, pattern) in patterns {
            body.put(pattern.count); body.put(Int(shape - previous))
            previous = shape
            if hasGap[Int(shape)] { body.put(pattern.elided) }
        }
        body.put(target.ungrouped)
        var fields = IndexFieldWriter()
        strings.put(into: &fields)
        fields.append(body.bytes)
        return fields.bytes
    }

    /// The section's names, shapes and targets (each with its explanation's position), every count bounded by the
    /// bytes left and every reference by what precedes it; `fields` left at the explanations.
    static func directory(_ bytes: [UInt8]) throws(TraceIndexError)
        -> (names: [String], shapes: [Shape], targets: [String], positions: [Int], fields: IndexFieldReader) {
        var fields = IndexFieldReader(bytes)
        let nameCount = try fields.elements(eachAtLeast: 1)
        var names: [String] = []
        names.reserveCapacity(nameCount)
        for _ in 0..<nameCount { names.append(try fields.string()) }
        func name() throws(TraceIndexError) -> String {
            guard !names.isEmpty else { throw .damaged("a name not in its table") }
            return names[try fields.count(atMost: UInt64(names.count - 1))]
        }
        let stepCount = try fields.elements(eachAtLeast: 1)
        var steps: [WhyStep] = []
        steps.reserveCapacity(stepCount)
        for _ in 0..<stepCount {
            switch try fields.count(atMost: 5) {
            case 0:
                steps.append(.action(name: try name(), arguments: ""))
            case 1:
                steps.append(.changed(name: try name(), kind: try fields.kind(TraceNodeKind.self)))
            case 2:
                let text = try name(), kind = try fields.kind(TraceNodeKind.self)
                steps.append(.invalidated(name: text, kind: kind, cause: try fields.kind(InvalidationCause.self)))
            case 3:
                let text = try name(), kind = try fields.kind(TraceNodeKind.self)
                steps.append(.ran(name: text, kind: kind, firstRun: try fields.bool()))
            case 4:
                steps.append(.unknown)
            default:
                steps.append(.elided(count: 0))
            }
        }
        let shapeCount = try fields.elements(eachAtLeast: 2)
        var shapes: [Shape] = []
        shapes.reserveCapacity(shapeCount)
        var depths: [Int] = []
        depths.reserveCapacity(shapeCount)
        for position in 0..<shapeCount {
            // A shape follows the one before it: no loop, and no chain longer than a pass keeps.
            let distance = try fields.count(atMost: UInt64(position) + 1)
            guard distance > 0 else { throw .damaged("a shape before itself") }
            let parent = position - distance
            let depth = parent < 0 ? 1 : depths[parent] + 1
            guard depth <= CauseLink.maximumDepth else { throw .damaged("a chain longer than a pass keeps") }
            guard !steps.isEmpty else { throw .damaged("a step not in its table") }
            let step = steps[try fields.count(atMost: UInt64(steps.count - 1))]
            var gap = parent >= 0 && shapes[parent].hasGap
            if case .elided = step {
                guard !gap else { throw .damaged("a chain with two gaps") }
                gap = true
            }
            shapes.append(Shape(parent: Int32(parent), step: step, hasGap: gap))
            depths.append(depth)
        }
        let targetCount = try fields.elements(eachAtLeast: 2)
        var targets: [String] = []
        var positions: [Int] = []
        targets.reserveCapacity(targetCount)
        positions.reserveCapacity(targetCount)
        for _ in 0..<targetCount {
            targets.append(try fields.string())
            positions.append(try fields.count(atMost: UInt64(fields.readableBytes)))
        }
        return (names, shapes, targets, positions, fields)
    }

    /// The explanation of `target` as its pass makes it (without the kind, instances and site
    /// the model gives), nil when the section does not keep it.
    static func decode(_ bytes: [UInt8], target: String) throws(TraceIndexError) -> WhyReport? {
        let (_, shapes, targets, positions, rest) = try directory(bytes)
        var fields = rest
        let blobCount = try fields.elements(eachAtLeast: 1)
        guard positions.allSatisfy({ $0 < blobCount }) else { throw .damaged("an explanation not in the section") }
        guard let found = targets.firstIndex(of: target) else {
            // Every blob is read through, as far as the end, whichever is asked for.
            for _ in 0..<blobCount { _ = try fields.bytes() }
            guard fields.readableBytes == 0 else { throw .damaged("bytes after its explanations") }
            return nil
        }
        var blob: [UInt8] = []
        for position in 0..<blobCount {
            let bytes = try fields.bytes()
            if position == positions[found] { blob = bytes }
        }
        guard fields.readableBytes == 0 else { throw .damaged("bytes after its explanations") }
        return try explanation(blob, target: target, shapes: shapes)
    }

    private static func explanation(_ bytes: [UInt8], target: String, shapes: [Shape]) throws(TraceIndexError)
        -> WhyReport {
        var fields = IndexFieldReader(bytes)
        let strings = try fields.stringTable()
        func string() throws(TraceIndexError) -> String { try fields.string(in: strings) }
        func shape(after previous: Int? = nil) throws(TraceIndexError) -> (steps: [WhyStep], gap: Int, position: Int) {
            guard !shapes.isEmpty else { throw .damaged("a shape not in its table") }
            let code = try fields.count(atMost: UInt64(shapes.count))
            let found = previous.map { $0 + code } ?? code
            guard found < shapes.count, previous == nil || code > 0 else { throw .damaged("a shape not in its table") }
            var position = Int32(found)
            var steps: [WhyStep] = []
            let gap = shapes[Int(position)].hasGap ? try fields.int() : 0
            while position >= 0 {
                steps.append(shapes[Int(position)].step)
                position = shapes[Int(position)].parent
            }
            return (steps.reversed(), gap, found)
        }
        var report = WhyReport(target: target)
        try fields.whyCounts(into: &report, strings: strings)
        let entryCount = try fields.elements(eachAtLeast: 5)
        report.entries.reserveCapacity(entryCount)
        var time: UInt64 = 0
        for _ in 0..<entryCount {
            let timestamp = Varint.undoZigzagDelta(try fields.next(), from: time), node = try fields.next()
            time = timestamp
            let (event, stopCause) = try fields.whyEvent()
            let (steps, gap, _) = try shape()
            var chain: [WhyStep] = []
            chain.reserveCapacity(steps.count)
            let carries = try fields.bool()
            for step in steps {
                switch step {
                case let .action(name, _, _):
                    guard carries else { throw .damaged("a call without its arguments") }
                    let arguments = try string()
                    chain.append(.action(name: name, arguments: arguments, site: try fields.bool() ? try string() : nil))
                case let .changed(name, kind, _):
                    var values: WhyValueChange?
                    if carries, try fields.bool() {
                        let previous = try fields.bool() ? try string() : nil
                        values = WhyValueChange(previous: previous, value: try string())
                    }
                    chain.append(.changed(name: name, kind: kind, values: values))
                case .elided:
                    chain.append(.elided(count: gap))
                default:
                    chain.append(step)
                }
            }
            report.entries.append(WhyEntry(timestamp: timestamp, node: node, event: event, chain: chain,
                                           stopCause: stopCause))
        }
        report.omittedEntries = try fields.int()
        let patternCount = try fields.elements(eachAtLeast: 2)
        var patterns: [WhyPattern] = []
        patterns.reserveCapacity(patternCount)
        var previous = -1
        for _ in 0..<patternCount {
            let count = try fields.int()
            let (steps, gap, position) = try shape(after: previous)
            previous = position
            patterns.append(WhyPattern(chain: gap == 0 ? steps : steps.map { step in
                if case .elided = step { return .elided(count: gap) }
                return step
            }, count: count))
        }
        report.patterns = WhyPattern.ordered(patterns)
        report.ungroupedEntries = try fields.int()
        guard fields.readableBytes == 0 else { throw .damaged("bytes after an explanation") }
        return report
    }
}
