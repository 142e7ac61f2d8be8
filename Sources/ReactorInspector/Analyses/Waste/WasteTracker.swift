import ReactorTraceFormat

/// Judges every rerun of a trace as the one importer resolves it: whether the
/// rerun was needed (``WasteReport``). A visitor of the same pass that builds
/// the model (``TraceProfile`` feeds it), with values and causes tracked.
///
/// A rerun is unneeded when every value it read equals the value the same
/// computation read in its previous run: what it read are the dependencies
/// its run depended on (`depend` events inside the run) and the dependency
/// whose change scheduled it (a signal stage reads the value it is sent).
/// Values are compared as the trace recorded them (their descriptions); a
/// read whose value the trace does not hold (values off, a plain
/// `Dependency`, a secret, a description cut at the recorder's limit) leaves
/// the rerun undecided. A computed's rerun that ended without a change (the
/// `Equatable` cut-off) produced an equal value: known without values.
final class WasteTracker {
    // Used from one thread (its profile's): the state touched on every event opts out of
    // dynamic exclusivity checks, as the importer's does.
    /// One read of a run: the dependency (importer position) and its value then.
    struct Read: Equatable {
        var node: Int32
        var value: String?
    }

    /// Per computation, what its runs read.
    struct Reads {
        var previous: [Read]?
        var current: [Read] = []
        /// The write whose change scheduled the current run.
        var cause: WasteWrite.Key?

        /// The current run's reads become the previous run's; the buffer of the
        /// older ones is reused for the next run's.
        mutating func finishRun() {
            if previous == nil {
                previous = current
                current = []
            } else {
                swap(&previous!, &current)
                current.removeAll(keepingCapacity: true)
            }
        }
    }

    /// Per computation (importer position): its judged reruns.
    struct Tally {
        var reruns = 0
        var unneeded = 0
        var unneededNanoseconds: UInt64 = 0
        var undecided = 0
        var equalResults = 0
        var equalResultNanoseconds: UInt64 = 0
        var causes: [WasteWrite.Key: Int] = [:]
    }

    /// A computed's rerun just ended on a thread: its change, if any, is the thread's next event.
    struct EndedComputed {
        var node: Int32
        var nanoseconds: UInt64
    }

    /// Per computation (importer position), nil until its first run began: arrays, so
    /// that each `depend` costs no hashing and each run's reads reuse its buffers.
    @exclusivity(unchecked) private var reads: [Reads?] = []
    @exclusivity(unchecked) private var talliesByPosition: [Tally?] = []
    /// Per thread index: the computed whose run ended last, awaiting its change. At most
    /// one per thread, mostly none or one: searched in place, not hashed on every event
    /// (a hostile thread index costs one entry).
    @exclusivity(unchecked) private var endedComputeds: [(thread: UInt32, ended: EndedComputed)] = []

    /// What a recorded description cannot tell apart: a secret, or a description cut at the limit.
    static func isComparable(_ value: String) -> Bool {
        value != "‹redacted›" && !value.hasSuffix("…")
    }

    func visit(_ event: ImportedEvent, from importer: TraceModelBuilder) {
        let thread = event.thread
        if !endedComputeds.isEmpty, let index = endedComputeds.firstIndex(where: { $0.thread == thread }) {
            let ended = endedComputeds[index].ended
            // The new value's event comes between the run's end and its change.
            if case .value = event.record, event.node == ended.node {
            } else {
                endedComputeds.swapAt(index, endedComputeds.count - 1)
                endedComputeds.removeLast()
                resolve(ended, by: event, importer)
            }
        }
        switch event.record {
        case .rerunBegan:
            guard event.node >= 0 else { return }
            began(event, importer)
        case .depend:
            let node = Int(event.node)
            guard node >= 0, event.relatedNode >= 0, node < reads.count, reads[node] != nil else { return }
            reads[node]!.current.append(Read(node: event.relatedNode, value: importer.value(ofNode: event.relatedNode)))
        case .rerunEnded:
            guard event.node >= 0, let slice = event.slice else { return }
            ended(event.node, slice: slice, thread: thread, importer)
        default:
            break
        }
    }

    /// Resolves the computed whose run ended just before `event` on its thread.
    private func resolve(_ ended: EndedComputed, by event: ImportedEvent, _ importer: TraceModelBuilder) {
        if case .changed = event.record, event.node == ended.node {
            // A change: equal only if the value recorded for it equals the one before.
            guard event.value == .changed, let (previous, value) = importer.changedValues, let previous,
                  Self.isComparable(value), value == previous else { return }
        }
        // No change followed the run: the equality cut-off. In place: a copy would copy its causes.
        let index = tallyIndex(ofPosition: ended.node)
        Self.countEqualResult(ended, in: &talliesByPosition[index]!)
    }

    private static func countEqualResult(_ ended: EndedComputed, in tally: inout Tally) {
        tally.equalResults += 1
        tally.equalResultNanoseconds = tally.equalResultNanoseconds.saturatingAdd(ended.nanoseconds)
    }

    /// Where the tally of the computation at `position` is, made when it has none yet.
    private func tallyIndex(ofPosition position: Int32) -> Int {
        let index = Int(position)
        if index >= talliesByPosition.count {
            talliesByPosition.append(contentsOf: repeatElement(nil, count: index + 1 - talliesByPosition.count))
        }
        if talliesByPosition[index] == nil { talliesByPosition[index] = Tally() }
        return index
    }

    private func began(_ event: ImportedEvent, _ importer: TraceModelBuilder) {
        let node = Int(event.node)
        if node >= reads.count { reads.append(contentsOf: repeatElement(nil, count: node + 1 - reads.count)) }
        if reads[node] == nil { reads[node] = Reads() }
        reads[node]!.current.removeAll(keepingCapacity: true)
        reads[node]!.cause = nil
        if let slice = event.slice, !slice.firstRun, let chain = importer.cause(ofSliceIn: event) {
            reads[node]!.cause = Self.write(of: chain)
            if let scheduling = Self.schedulingDependency(of: chain) {
                reads[node]!.current.append(Read(node: scheduling, value: importer.value(ofNode: scheduling)))
            }
        }
    }

    private func ended(_ node: Int32, slice: ImportedSlice, thread: UInt32, _ importer: TraceModelBuilder) {
        let position = Int(node)
        guard position < reads.count, reads[position] != nil else { return }
        Self.normalize(&reads[position]!.current)
        defer { reads[position]!.finishRun() }
        guard !slice.firstRun else { return }
        // In place: a copy of the tally would copy its causes on every unneeded rerun.
        let verdict = Self.judge(reads[position]!.current, against: reads[position]!.previous)
        let index = tallyIndex(ofPosition: node)
        Self.count(verdict, of: slice, cause: reads[position]!.cause, in: &talliesByPosition[index]!)
        if importer.kind(ofNode: node) == .computed {
            let ended = EndedComputed(node: node, nanoseconds: slice.durationNanoseconds)
            if let index = endedComputeds.firstIndex(where: { $0.thread == thread }) {
                endedComputeds[index].ended = ended
            } else {
                endedComputeds.append((thread, ended))
            }
        }
    }

    private static func count(_ verdict: Verdict, of slice: ImportedSlice, cause: WasteWrite.Key?, in tally: inout Tally) {
        tally.reruns += 1
        switch verdict {
        case .unneeded:
            tally.unneeded += 1
            tally.unneededNanoseconds = tally.unneededNanoseconds.saturatingAdd(slice.durationNanoseconds)
            tally.causes[cause ?? WasteWrite.Key(node: -1, cause: nil, action: -1, site: nil), default: 0] += 1
        case .undecided:
            tally.undecided += 1
        case .needed:
            break
        }
    }

    /// The tallies as they stand at the end of what was read: a computed's run
    /// still awaiting its change made none (the pass itself may go on).
    var finishedTallies: [Int32: Tally] {
        var finished: [Int32: Tally] = [:]
        for (position, tally) in talliesByPosition.enumerated() {
            if let tally { finished[Int32(position)] = tally }
        }
        for (_, ended) in endedComputeds {
            var tally = finished[ended.node, default: Tally()]
            tally.equalResults += 1
            tally.equalResultNanoseconds = tally.equalResultNanoseconds.saturatingAdd(ended.nanoseconds)
            finished[ended.node] = tally
        }
        return finished
    }

    enum Verdict { case needed, unneeded, undecided }

    /// Keeps one read per dependency, its first (a dependency is read with one value per run), in node order.
    static func normalize(_ reads: inout [Read]) {
        // A run reads a few dependencies: compared pairwise, without a set per run.
        if reads.count <= 16 {
            var keptCount = 0
            for index in reads.indices {
                let node = reads[index].node
                var seen = false
                for earlier in 0..<keptCount where reads[earlier].node == node {
                    seen = true
                    break
                }
                if !seen {
                    if keptCount != index { reads.swapAt(keptCount, index) }
                    keptCount += 1
                }
            }
            reads.removeLast(reads.count - keptCount)
        } else {
            var seen = Set<Int32>()
            reads = reads.filter { seen.insert($0.node).inserted }
        }
        // One read per node: the order is the nodes'.
        reads.sort { $0.node < $1.node }
    }

    /// Whether a run that read `current` was needed after one that read `previous`.
    static func judge(_ current: [Read], against previous: [Read]?) -> Verdict {
        // Nothing read, or no earlier run to compare with: nothing to judge.
        guard let previous, !current.isEmpty else { return .undecided }
        // Another set of dependencies: what it read before led elsewhere.
        guard current.count == previous.count, !zip(current, previous).contains(where: { $0.node != $1.node }) else {
            return .needed
        }
        var decided = true
        for (now, before) in zip(current, previous) {
            guard let value = now.value, let earlier = before.value, isComparable(value), isComparable(earlier) else {
                decided = false
                continue
            }
            if value != earlier { return .needed }
        }
        return decided ? .unneeded : .undecided
    }

    /// The dependency whose change scheduled the run `chain` ends at: the changed step nearest to it.
    static func schedulingDependency(of chain: CauseLink) -> Int32? {
        var cursor: CauseLink? = chain.next
        while let link = cursor {
            switch link.step {
            case let .changed(node, _): return node
            case .invalidated: cursor = link.next
            default: return nil
            }
        }
        return nil
    }

    /// The write behind a rerun: the nearest change of its chain (or how it
    /// was invalidated without one), the action call at its root and the call's site.
    static func write(of chain: CauseLink) -> WasteWrite.Key {
        let call = chain.rootCall
        if let node = schedulingDependency(of: chain) {
            return WasteWrite.Key(node: node, cause: nil, action: call?.action ?? -1, site: call?.site)
        }
        var cause: InvalidationCause?
        if case let .invalidated(_, invalidation)? = chain.next?.step { cause = invalidation }
        return WasteWrite.Key(node: -1, cause: cause, action: call?.action ?? -1, site: call?.site)
    }
}
