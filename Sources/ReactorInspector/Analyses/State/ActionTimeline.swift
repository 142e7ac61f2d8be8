import ReactorTraceFormat

/// Each store action of a trace in time order, with what it changed (before →
/// after, from the trace's values) and the reruns counted up to its end: the
/// report's action timeline. It reads the events as the one importer resolves
/// them (``ImportedEventVisitor``): names, reruns and values are the model's.
/// An action's moment is as for `action:N`: the end of an outermost action
/// (none other open on its thread) and the flush its end ran. Keeps at most
/// ``limit`` actions (and ``changeLimit`` changes each); the rest are counted.
public final class ActionTimeline: ImportedEventVisitor {
    /// One action call.
    public struct Step: Sendable, Equatable {
        /// 1-based, in the order the actions were read.
        public let ordinal: Int
        /// `TodoStore.addTodo(_:)`.
        public let name: String
        /// Its arguments as recorded (empty with values off).
        public let arguments: String
        /// When it began, and when it (and its flush) ended.
        public let began: UInt64
        public internal(set) var ended: UInt64
        /// Value changes in it and its flush: node name, before (nil: unknown), after.
        public internal(set) var changes: [(name: String, before: String?, after: String)] = []
        /// Changes beyond ``ActionTimeline/changeLimit``.
        public internal(set) var omittedChanges = 0
        /// Reruns per computation name up to the action's end, most first (at most 10).
        public internal(set) var rerunsSoFar: [(name: String, reruns: Int)] = []

        public static func == (lhs: Step, rhs: Step) -> Bool {
            lhs.ordinal == rhs.ordinal && lhs.ended == rhs.ended && lhs.changes.count == rhs.changes.count
        }
    }

    /// How many actions are kept.
    public let limit: Int
    /// How many changes are kept per action.
    public let changeLimit: Int
    /// The actions kept.
    public private(set) var steps: [Step] = []
    /// Actions beyond the limit.
    public private(set) var omitted = 0
    /// Whether the trace holds values.
    public private(set) var hasValues = false

    /// The importer whose events the timeline reads (its own for ``record(_:)``).
    @exclusivity(unchecked) private var importer: TraceModelBuilder?
    /// Per thread, the step still collecting (its flush may follow its end).
    @exclusivity(unchecked) private var collecting: [UInt32: (step: Int, flushDepth: Int, ended: Bool)] = [:]

    /// Creates a timeline.
    public init(limit: Int = 200, changeLimit: Int = 50) {
        self.limit = max(0, limit)
        self.changeLimit = max(0, changeLimit)
    }

    /// A finished timeline as read before (the index keeps it).
    init(limit: Int, changeLimit: Int, steps: [Step], omitted: Int, hasValues: Bool) {
        self.limit = limit
        self.changeLimit = changeLimit
        self.steps = steps
        self.omitted = omitted
        self.hasValues = hasValues
    }

    /// Consumes the next event of a trace no other view imports: the timeline
    /// imports it itself. To share one import with other views, pass the
    /// timeline to ``TraceModelBuilder/consume(_:visiting:)`` instead.
    public func record(_ event: TraceEvent) {
        let importer = importer ?? TraceModelBuilder(options: TraceModelOptions(tracksValues: true))
        var visitor = self
        importer.consume(event, visiting: &visitor)
    }

    /// Takes the next event as the importer resolved it (the importer must
    /// track values for the changes: ``TraceModelOptions/tracksValues``).
    public func visit(_ event: ImportedEvent, from importer: TraceModelBuilder) {
        // Assigned only when it changes: a retain and a release on every event otherwise.
        if self.importer !== importer { self.importer = importer }
        let thread = event.thread
        if !collecting.isEmpty, var open = collecting[thread], open.ended {
            switch event.kind {
            case .flushBegan:
                open.flushDepth += 1
                collecting[thread] = open
            case .flushEnded where open.flushDepth > 0:
                open.flushDepth -= 1
                steps[open.step].ended = event.time
                if open.flushDepth == 0 { close(thread) } else { collecting[thread] = open }
            default:
                if open.flushDepth == 0 { close(thread) }
            }
        }
        switch event.record {
        case .value:
            hasValues = true
            // A value older than the node's (threads interleave) is not the model's: not a change.
            guard event.value == .first || event.value == .written, let open = collecting[thread],
                  let after = importer.value(ofNode: event.node) else { return }
            if steps[open.step].changes.count < changeLimit {
                let before = event.value == .written ? importer.previousValue(ofNode: event.node) : nil
                steps[open.step].changes.append((importer.name(ofNode: event.node), before, after))
            } else {
                steps[open.step].omittedChanges += 1
            }
        case let .actionBegan(_, _, arguments):
            guard event.slice?.outermost == true else { return }
            if collecting[thread] != nil { close(thread) }
            guard steps.count < limit else { omitted += 1; return }
            steps.append(Step(ordinal: importer.outermostActionsBegun, name: importer.actionName(event.action),
                              arguments: importer.string(arguments), began: event.time, ended: event.time))
            collecting[thread] = (steps.count - 1, 0, false)
        case .actionEnded:
            guard event.slice?.outermost == true, var step = collecting[thread] else { return }
            step.ended = true
            steps[step.step].ended = event.time
            collecting[thread] = step
        default:
            break
        }
    }

    /// Closes what is still open (call after the last event).
    public func finish() {
        for thread in Array(collecting.keys) { close(thread) }
    }

    /// Ends the step collecting on `thread` with the model's reruns so far.
    private func close(_ thread: UInt32) {
        guard let open = collecting.removeValue(forKey: thread), let importer else { return }
        var byName: [String: Int] = [:]
        for position in 0..<Int32(importer.nodeCount) {
            let reruns = importer.runs(ofNode: position).reruns
            if reruns > 0 { byName[importer.name(ofNode: position), default: 0] += reruns }
        }
        steps[open.step].rerunsSoFar = byName.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.prefix(10)
            .map { ($0.key, $0.value) }
    }
}
