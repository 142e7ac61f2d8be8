import ReactorCore
import ReactorTrace

/// Turns the event stream into text lines, one an event, as it streams: it
/// learns names from creation and naming events, indents by nesting and shows
/// the duration of each run and action at its end. Memory grows with nodes only.
public struct ReplayFormatter {
    /// Which events to print.
    public let filter: ReplayFilter
    /// Colours or plain.
    public let style: TextStyle

    private var names: [UInt64: (kind: TraceNodeKind, name: String)] = [:]
    private var stacks: [UInt32: [(node: UInt64, begin: UInt64, isAction: Bool, label: String)]] = [:]
    private let loweredNames: [String]

    /// Creates a formatter.
    public init(filter: ReplayFilter = ReplayFilter(), style: TextStyle = .plain) {
        self.filter = filter
        self.style = style
        loweredNames = filter.names.map { $0.lowercased() }
    }

    /// The line for `event`, or nil when the filter drops it. Call it for
    /// every event in order, even those after the window, so names stay known.
    public mutating func line(for event: TraceEvent) -> String? {
        learn(event)
        let nesting = self.nesting(of: event)
        defer { applyNesting(nesting, event: event) }
        // Filter before formatting: most events of a large trace are dropped.
        if let from = filter.from, event.timestamp < from { return nil }
        if let to = filter.to, event.timestamp > to { return nil }
        if let kinds = filter.kinds, !kinds.contains(event.record.kind) { return nil }
        if !loweredNames.isEmpty && !matchesName(event) { return nil }
        let depth = stacks[event.thread]?.count ?? 0
        let text = describe(event)
        let indentLevel = event.record.kind == .rerunEnded || event.record.kind == .actionEnded ? max(0, depth - 1) : depth
        let time = DurationText.formatTime(event.timestamp).leftPadded(to: 12)
        let kind = event.record.kind.name.padded(to: 12)
        return style.dim(time) + "  " + style.dim("t\(event.thread)") + "  " + colored(kind, event.record.kind) + "  "
            + String(repeating: "  ", count: min(indentLevel, 20)) + text
    }

    /// Returns `true` when the event is past the window's end, so the caller may stop reading.
    public func isPastWindow(_ event: TraceEvent) -> Bool {
        guard let to = filter.to else { return false }
        return event.timestamp > to
    }

    private mutating func learn(_ event: TraceEvent) {
        switch event.record {
        case let .nodeCreated(id, kind, name, _):
            names[id] = (kind, name)
        case let .nodeNamed(id, name, _):
            names[id] = (names[id]?.kind ?? .reactiveValue, name)
        default:
            break
        }
    }

    private func displayName(_ id: UInt64) -> String {
        guard let known = names[id] else { return "#\(id)" }
        return known.name.isEmpty ? "\(known.kind.label)#\(id)" : known.name
    }

    private func labeled(_ id: UInt64) -> String {
        let kind = names[id]?.kind
        let name = style.bold(displayName(id))
        return kind.map { "\($0.label) \(name)" } ?? name
    }

    private enum Nesting {
        case none
        case push(node: UInt64, isAction: Bool, label: String)
        case pop(node: UInt64, isAction: Bool)
    }

    /// True if a node the event involves, or the action it begins or ends, has a matching name.
    private func matchesName(_ event: TraceEvent) -> Bool {
        var names = involved(in: event.record).filter { $0 != 0 }.map(displayName)
        switch event.record {
        case let .actionBegan(store, name, _):
            names.append("\(displayName(store)).\(name)")
        case let .actionEnded(store):
            if let label = stacks[event.thread]?.last(where: { $0.isAction && $0.node == store })?.label {
                names.append(label)
            }
        default:
            break
        }
        return names.contains { name in
            let lowered = name.lowercased()
            return loweredNames.contains { lowered.contains($0) }
        }
    }

    private func involved(in record: TraceRecord) -> [UInt64] {
        switch record {
        case let .nodeCreated(id, _, _, parent): [id, parent]
        case let .nodeNamed(id, _, owner): [id, owner]
        case let .nodeStopped(id): [id]
        case let .depend(computation, dependency): [computation, dependency]
        case let .changed(dependency): [dependency]
        case let .invalidated(computation, _, source): [computation, source]
        case let .rerunBegan(computation, _), let .rerunEnded(computation): [computation]
        case let .actionBegan(store, _, _), let .actionEnded(store): [store]
        case .flushBegan, .flushEnded: []
        case let .issue(_, node, _): [node]
        }
    }

    private func nesting(of event: TraceEvent) -> Nesting {
        switch event.record {
        case let .rerunBegan(computation, _): .push(node: computation, isAction: false, label: "")
        case let .rerunEnded(computation): .pop(node: computation, isAction: false)
        case let .actionBegan(store, name, _): .push(node: store, isAction: true, label: "\(displayName(store)).\(name)")
        case let .actionEnded(store): .pop(node: store, isAction: true)
        default: .none
        }
    }

    private func describe(_ event: TraceEvent) -> String {
        switch event.record {
        case let .nodeCreated(id, _, _, parent):
            let suffix = parent != 0 ? style.dim(" in \(displayName(parent))") : ""
            return labeled(id) + suffix
        case let .nodeNamed(id, name, owner):
            let suffix = owner != 0 ? style.dim(" of \(displayName(owner))") : ""
            return "#\(id) is \(style.bold(name))" + suffix
        case let .nodeStopped(id):
            return labeled(id)
        case let .depend(computation, dependency):
            return labeled(computation) + style.dim(" reads ") + labeled(dependency)
        case let .changed(dependency):
            return labeled(dependency)
        case let .invalidated(computation, cause, source):
            let reason: String
            switch cause {
            case .dependency: reason = "by \(displayName(source))"
            case .parent: reason = "with its parent \(displayName(source))"
            case .explicit: reason = "explicitly"
            case .stop: reason = "by stop()"
            }
            return labeled(computation) + " " + style.dim(reason)
        case let .rerunBegan(computation, firstRun):
            return labeled(computation) + (firstRun ? style.dim(" (first run)") : "")
        case let .rerunEnded(computation):
            let duration = beginTime(of: computation, isAction: false, thread: event.thread)
                .map { " " + style.dim(DurationText.format(event.timestamp &- $0)) } ?? ""
            return labeled(computation) + duration
        case let .actionBegan(store, name, arguments):
            let label = "\(displayName(store)).\(name)"
            return style.cyan(label) + (arguments.isEmpty ? "" : " " + arguments)
        case let .actionEnded(store):
            let frame = stacks[event.thread]?.last { $0.isAction && $0.node == store }
            let label = frame?.label ?? displayName(store)
            let duration = frame.map { " " + style.dim(DurationText.format(event.timestamp &- $0.begin)) } ?? ""
            return style.cyan(label) + duration
        case .flushBegan, .flushEnded:
            return ""
        case let .issue(kind, _, message):
            return style.yellow(kind.label) + ": " + message
        }
    }

    private func beginTime(of node: UInt64, isAction: Bool, thread: UInt32) -> UInt64? {
        stacks[thread]?.last { $0.node == node && $0.isAction == isAction }?.begin
    }

    private mutating func applyNesting(_ nesting: Nesting, event: TraceEvent) {
        switch nesting {
        case .none:
            break
        case let .push(node, isAction, label):
            stacks[event.thread, default: []].append((node, event.timestamp, isAction, label))
        case let .pop(node, isAction):
            if let index = stacks[event.thread]?.lastIndex(where: { $0.node == node && $0.isAction == isAction }) {
                stacks[event.thread]!.removeSubrange(index...)
            }
        }
    }

    private func colored(_ text: String, _ kind: TraceEventKind) -> String {
        switch kind {
        case .rerunBegan, .rerunEnded: style.green(text)
        case .changed: style.yellow(text)
        case .invalidated: style.red(text)
        case .actionBegan, .actionEnded: style.cyan(text)
        case .issue: style.yellow(text)
        default: text
        }
    }
}
