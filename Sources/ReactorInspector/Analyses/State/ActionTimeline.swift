import ReactorTraceFormat

/// Each store action of a trace in time order, with what it changed (before →
/// after, from the trace's values) and the reruns counted up to its end: the
/// report's action timeline. Fed the same events as the report's profile, in
/// one pass. An action's moment is as for `action:N`: its end and the flush
/// its end ran. Keeps at most ``limit`` actions (and ``changeLimit`` changes
/// each); the rest are counted.
public final class ActionTimeline {
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

    private var names: [UInt64: String] = [:]
    private var kinds: [UInt64: TraceNodeKind] = [:]
    private var values: [UInt64: String] = [:]
    private var reruns: [UInt64: Int] = [:]
    /// Per thread: open actions' depth, and the step still collecting (its flush may follow).
    private var depth: [UInt32: Int] = [:]
    private var collecting: [UInt32: (step: Int, flushDepth: Int, ended: Bool)] = [:]

    /// Creates a timeline.
    public init(limit: Int = 200, changeLimit: Int = 50) {
        self.limit = max(0, limit)
        self.changeLimit = max(0, changeLimit)
    }

    /// Consumes the next event.
    public func record(_ event: TraceEvent) {
        let thread = event.thread
        if var open = collecting[thread], open.ended {
            switch event.record {
            case .flushBegan:
                open.flushDepth += 1
                collecting[thread] = open
            case .flushEnded where open.flushDepth > 0:
                open.flushDepth -= 1
                steps[open.step].ended = event.timestamp
                if open.flushDepth == 0 { close(thread) } else { collecting[thread] = open }
            default:
                if open.flushDepth == 0 { close(thread) }
            }
        }
        switch event.record {
        case let .nodeCreated(id, kind, name, _):
            kinds[id] = kind
            if !name.isEmpty { names[id] = name }
        case let .nodeNamed(id, name, _):
            names[id] = name
        case let .rerunBegan(computation, firstRun):
            if !firstRun { reruns[computation, default: 0] += 1 }
        case let .value(node, value):
            hasValues = true
            let before = values[node]
            values[node] = value
            if let open = collecting[thread] {
                if steps[open.step].changes.count < changeLimit {
                    steps[open.step].changes.append((name(node), before, value))
                } else {
                    steps[open.step].omittedChanges += 1
                }
            }
        case let .actionBegan(store, action, arguments):
            depth[thread, default: 0] += 1
            guard depth[thread] == 1 else { return }
            if collecting[thread] != nil { close(thread) }
            guard steps.count < limit else { omitted += 1; return }
            let storeName = name(store)
            steps.append(Step(ordinal: steps.count + omitted + 1, name: storeName + "." + action, arguments: arguments,
                              began: event.timestamp, ended: event.timestamp))
            collecting[thread] = (steps.count - 1, 0, false)
        case .actionEnded:
            guard let open = depth[thread], open > 0 else { return }
            depth[thread] = open - 1
            if open == 1, var step = collecting[thread] {
                step.ended = true
                steps[step.step].ended = event.timestamp
                collecting[thread] = step
            }
        default:
            break
        }
    }

    /// Closes what is still open (call after the last event).
    public func finish() {
        for thread in Array(collecting.keys) { close(thread) }
    }

    private func close(_ thread: UInt32) {
        guard let open = collecting.removeValue(forKey: thread) else { return }
        var byName: [String: Int] = [:]
        for (id, count) in reruns { byName[name(id), default: 0] += count }
        steps[open.step].rerunsSoFar = byName.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.prefix(10)
            .map { ($0.key, $0.value) }
    }

    private func name(_ id: UInt64) -> String {
        names[id] ?? TraceNode.unnamed(id, createdAs: kinds[id])
    }
}
