import ReactorTraceFormat

/// Turns the event stream into text lines, one an event, as it streams: it
/// learns names from creation and naming events, indents by nesting and shows
/// the duration of each run and action at its end. Memory grows with nodes only.
///
/// In a trace recorded with values, a node's first value is a `value` line
/// (`value  property TodoStore.filter = all`) and each later one is folded into
/// the `changed` line of the write that follows it:
/// `changed  property TodoStore.filter: all → active`.
///
/// Lines are built as UTF-8 bytes (``write(_:to:)``), with each node's name
/// and label prepared once when it is created or named: `replay` prints tens
/// of millions of lines, and building a `String` per line cost about 1.3 µs.
public struct ReplayFormatter {
    /// Which events to print.
    public let filter: ReplayFilter
    /// Colours or plain.
    public let style: TextStyle
    /// One JSON object a line instead of text (`replay --json`): `timeNanoseconds`,
    /// `thread`, `kind`, `name`, and per kind the other node, cause, first run or duration;
    /// `value` (and `previousValue`) on value and changed objects of a trace with values.
    public let json: Bool

    /// What a line shows of a node, prepared when it is created or named:
    /// ranges of ``arena``, so that copying it retains nothing.
    private struct NodeText {
        var kind: TraceNodeKind?
        /// The name as shown (escaped for the terminal), `kind#id` if it has none yet, `#id` if never created.
        var name: Range<Int>
        /// The name as the trace has it, for JSON lines (which escape it their own way).
        var raw: Range<Int>
        /// `kind ` + bold name (or the bold name alone for an unknown kind).
        var labeled: Range<Int>
        /// The name contains one of the filter's names (case-insensitive).
        var matches: Bool
    }

    /// An open run or action on one thread.
    private struct Frame {
        var node: UInt64
        var begin: UInt64
        var isAction: Bool
        /// `Store.action` for actions.
        var label: [UInt8]
    }

    /// A node's value as the trace last gave it, and the one before it while
    /// the write's `changed` is still to come.
    private struct NodeValue {
        var current: String?
        var previous: String?
        /// A value event arrived and its `changed` has not yet.
        var awaitsChange = false
    }

    private var index = NodeIndex()
    private var nodes: [NodeText] = []
    /// By node slot; only as long as the last slot with a value.
    private var values: [NodeValue] = []
    private var stacks: [[Frame]] = []
    private let loweredNames: [String]
    /// The line being built, reused (its storage is shared by copies of the formatter).
    private let text = ByteText()
    /// Node names and labels, and each kind's column (coloured and padded), end to end.
    private let arena = ByteText(capacity: 4_096)
    /// Each kind's column in ``arena``, by raw value.
    private let kindColumns: [Range<Int>]
    /// The strings of the ``TraceEvent`` being formatted, as a table (reused).
    private var scratchStrings: [String] = []

    /// Creates a formatter.
    public init(filter: ReplayFilter = ReplayFilter(), style: TextStyle = .plain, json: Bool = false) {
        self.filter = filter
        self.style = json ? .plain : style
        self.json = json
        loweredNames = filter.names.map { $0.lowercased() }
        text.colors = style.colors
        var columns = [Range<Int>](repeating: 0..<0, count: 256)
        for kind in TraceEventKind.allCases {
            let padded = kind.name + String(repeating: " ", count: max(0, 12 - kind.name.count))
            let column = Self.color(of: kind).map { style.colors ? "\u{1B}[\($0)m\(padded)\u{1B}[0m" : padded } ?? padded
            columns[Int(kind.rawValue)] = Self.store(column, in: arena)
        }
        kindColumns = columns
    }

    /// The line for `event`, or nil when the filter drops it. Call it for
    /// every event in order, even those after the window, so names stay known.
    public mutating func line(for event: TraceEvent) -> String? {
        guard build(event) else { return nil }
        return String(decoding: UnsafeBufferPointer(rebasing: text.bytes.dropLast()), as: UTF8.self)
    }

    /// Appends the line for `event` and a newline to `output`; returns false
    /// (appending nothing) when the filter drops it. As ``line(for:)``, call
    /// it for every event in order.
    public mutating func write(_ event: TraceEvent, to output: inout [UInt8]) -> Bool {
        guard build(event) else { return false }
        output.append(contentsOf: text.bytes)
        return true
    }

    /// Appends the line for the plain `event` of a batch whose strings are
    /// `strings` (``TraceEventBatch/strings``) and a newline to `output`;
    /// returns false (appending nothing) when the filter drops it. The same
    /// line as for the event's ``TraceEvent``, without building one.
    public mutating func write(_ event: PlainTraceEvent, strings: [String], to output: inout [UInt8]) -> Bool {
        guard build(event, strings) else { return false }
        output.append(contentsOf: text.bytes)
        return true
    }

    /// Calls `body` with the UTF-8 of the line for `event` and its newline, or
    /// returns false without calling it when the filter drops the event. The
    /// cheapest form: the bytes are only valid inside `body`.
    public mutating func withLine(for event: TraceEvent, _ body: (UnsafeBufferPointer<UInt8>) -> Void) -> Bool {
        guard build(event) else { return false }
        body(text.bytes)
        return true
    }

    /// Builds the line for `event` in `text`; false when the filter drops it.
    private mutating func build(_ event: TraceEvent) -> Bool {
        // One path for both forms: the event's strings go to a scratch table.
        scratchStrings.removeAll(keepingCapacity: true)
        let record = PlainTraceRecord(event.record, strings: &scratchStrings)
        let strings = scratchStrings
        return build(PlainTraceEvent(timestamp: event.timestamp, thread: event.thread, record: record), strings)
    }

    /// Builds the line for `event` in `text`; false when the filter drops it.
    private mutating func build(_ event: PlainTraceEvent, _ strings: [String]) -> Bool {
        learn(event, strings)
        let thread = Int(event.thread)
        if thread >= stacks.count { stacks.append(contentsOf: repeatElement([], count: thread - stacks.count + 1)) }
        let kind = event.record.kind
        // In text, a write's new value folds into its `changed` line, unless value lines are
        // what was asked for; JSON keeps one object an event.
        if case let .value(node, value) = event.record, !takeValue(strings[Int(value.index)], of: node),
           !json, filter.kinds?.contains(.value) != true {
            return false
        }
        // Filter before formatting: most events of a large trace are dropped.
        let kept = isKept(event, strings, kind: kind, thread: thread)
        if kept {
            text.clear()
            if json {
                text.append(jsonLine(event, strings, kind: kind, thread: thread))
            } else {
                format(event, strings, kind: kind, thread: thread, to: text)
            }
        }
        if case let .changed(dependency) = event.record, let node = index.find(dependency),
           Int(node) < values.count {
            values[Int(node)].awaitsChange = false
        }
        applyNesting(event, strings, thread: thread)
        return kept
    }

    /// Records `value` as `node`'s; true if it is the node's first known value
    /// (a line of its own), false if it is a write's new value (shown on its `changed` line).
    private mutating func takeValue(_ value: String, of node: UInt64) -> Bool {
        let position = slot(node)
        if position >= values.count {
            values.append(contentsOf: repeatElement(NodeValue(), count: position - values.count + 1))
        }
        let isFirst = values[position].current == nil
        values[position].previous = values[position].current
        values[position].current = value
        values[position].awaitsChange = !isFirst
        return isFirst
    }

    // MARK: - JSON lines

    /// The event as one JSON object and a newline.
    private mutating func jsonLine(_ event: PlainTraceEvent, _ strings: [String], kind: TraceEventKind,
                                   thread: Int) -> String {
        func name(_ id: UInt64) -> String { JSONText.quoted(rawNameText(slot(id))) }
        var fields: [(String, String)] = []
        let primary: String
        switch event.record {
        case let .nodeCreated(id, nodeKind, _, parent):
            primary = name(id)
            fields.append(("nodeKind", JSONText.quoted(nodeKind.label)))
            if parent != 0 { fields.append(("parent", name(parent))) }
        case let .nodeNamed(id, _, owner):
            primary = name(id)
            if owner != 0 { fields.append(("owner", name(owner))) }
        case let .nodeStopped(id):
            primary = name(id)
        case let .depend(computation, dependency):
            primary = name(computation)
            fields.append(("dependency", name(dependency)))
        case let .changed(dependency):
            primary = name(dependency)
            let node = slot(dependency)
            if node < values.count, values[node].awaitsChange, let new = values[node].current {
                if let previous = values[node].previous { fields.append(("previousValue", JSONText.quoted(previous))) }
                fields.append(("value", JSONText.quoted(new)))
            }
        case let .invalidated(computation, cause, source):
            primary = name(computation)
            fields.append(("cause", JSONText.quoted(cause.label)))
            if source != 0 { fields.append(("source", name(source))) }
        case let .rerunBegan(computation, firstRun):
            primary = name(computation)
            fields.append(("firstRun", firstRun ? "true" : "false"))
        case let .rerunEnded(computation):
            primary = name(computation)
            if let frame = stacks[thread].last(where: { !$0.isAction && $0.node == computation }) {
                fields.append(("durationNanoseconds", String(event.timestamp &- frame.begin)))
            }
        case let .actionBegan(store, action, arguments):
            primary = JSONText.quoted(rawNameText(slot(store)) + "." + strings[Int(action.index)])
            fields.append(("arguments", JSONText.quoted(strings[Int(arguments.index)])))
        case let .actionEnded(store):
            if let frame = stacks[thread].last(where: { $0.isAction && $0.node == store }) {
                primary = JSONText.quoted(String(decoding: frame.label, as: UTF8.self))
                fields.append(("durationNanoseconds", String(event.timestamp &- frame.begin)))
            } else {
                primary = name(store)
            }
        case .flushBegan, .flushEnded:
            primary = "\"flush\""
        case let .issue(issueKind, node, message):
            primary = node == 0 ? JSONText.quoted(issueKind.label) : name(node)
            fields.append(("issue", JSONText.quoted(issueKind.label)))
            fields.append(("message", JSONText.quoted(strings[Int(message.index)])))
        case let .value(node, value):
            primary = name(node)
            fields.append(("value", JSONText.quoted(strings[Int(value.index)])))
        }
        var line = "{\"timeNanoseconds\":\(event.timestamp),\"thread\":\(event.thread),\"kind\":\"\(kind.name)\",\"name\":\(primary)"
        for (key, value) in fields { line += ",\"\(key)\":\(value)" }
        return line + "}\n"
    }

    // MARK: - Names

    private mutating func learn(_ event: PlainTraceEvent, _ strings: [String]) {
        switch event.record {
        case let .nodeCreated(id, kind, name, _):
            setName(id, kind: kind, name: strings[Int(name.index)])
        case let .nodeNamed(id, name, _):
            let known = index.find(id).flatMap { nodes[Int($0)].kind }
            setName(id, kind: known, name: strings[Int(name.index)])
        default:
            break
        }
    }

    private mutating func setName(_ id: UInt64, kind: TraceNodeKind?, name: String) {
        let display = name.isEmpty ? TraceNode.unnamed(id, createdAs: kind) : name
        let shown = TerminalEscaping.escape(display)
        let labeled = kind.map { $0.label + " " + style.bold(shown) } ?? style.bold(shown)
        let text = NodeText(kind: kind, name: Self.store(shown, in: arena), raw: Self.store(display, in: arena),
                            labeled: Self.store(labeled, in: arena), matches: matches(display))
        if let slot = index.find(id) {
            nodes[Int(slot)] = text
        } else {
            index.insert(id, at: Int32(nodes.count))
            nodes.append(text)
        }
    }

    /// The slot of node `id`, adding `#id` the first time an event names a node never created.
    @inline(__always)
    private mutating func slot(_ id: UInt64) -> Int {
        if let slot = index.find(id) { return Int(slot) }
        let display = TraceNode.unnamed(id, createdAs: nil)
        index.insert(id, at: Int32(nodes.count))
        let stored = Self.store(display, in: arena)
        nodes.append(NodeText(kind: nil, name: stored, raw: stored,
                              labeled: Self.store(style.bold(display), in: arena), matches: matches(display)))
        return nodes.count - 1
    }

    /// Appends `text` to `arena`, returning where it is. (Renaming a node
    /// adds its new text; names change once or twice a node, so this grows
    /// with nodes, not events.)
    private static func store(_ text: String, in arena: ByteText) -> Range<Int> {
        let start = arena.count
        arena.append(text)
        return start..<arena.count
    }

    // Mutating, and looking the node up themselves: a non-mutating call whose
    // argument mutates (slot(_:) may add a node) would copy the whole formatter.
    private mutating func appendName(of id: UInt64, to out: ByteText) {
        let node = slot(id)
        out.append(nodes[node].name, of: arena)
    }

    private mutating func appendLabeled(of id: UInt64, to out: ByteText) {
        let node = slot(id)
        out.append(nodes[node].labeled, of: arena)
    }

    /// A node's name as the trace has it (for JSON lines).
    private func rawNameText(_ slot: Int) -> String {
        String(decoding: UnsafeBufferPointer(start: arena.base + nodes[slot].raw.lowerBound, count: nodes[slot].raw.count),
               as: UTF8.self)
    }

    /// A node's name as text (for matching action labels).
    private func nameText(_ slot: Int) -> String {
        String(decoding: UnsafeBufferPointer(start: arena.base + nodes[slot].name.lowerBound, count: nodes[slot].name.count),
               as: UTF8.self)
    }

    private func matches(_ name: String) -> Bool {
        guard !loweredNames.isEmpty else { return false }
        let lowered = name.lowercased()
        return loweredNames.contains { lowered.contains($0) }
    }

    // MARK: - Filtering

    private mutating func isKept(_ event: PlainTraceEvent, _ strings: [String], kind: TraceEventKind,
                                 thread: Int) -> Bool {
        if let from = filter.from, event.timestamp < from { return false }
        if let to = filter.to, event.timestamp > to { return false }
        if let kinds = filter.kinds, !kinds.contains(kind) { return false }
        if !loweredNames.isEmpty && !matchesName(event, strings, thread: thread) { return false }
        return true
    }

    /// True if a node the event involves, or the action it begins or ends, has a matching name.
    private mutating func matchesName(_ event: PlainTraceEvent, _ strings: [String], thread: Int) -> Bool {
        func node(_ id: UInt64) -> Bool { id != 0 && nodes[slot(id)].matches }
        switch event.record {
        case let .nodeCreated(id, _, _, parent): return node(id) || node(parent)
        case let .nodeNamed(id, _, owner): return node(id) || node(owner)
        case let .nodeStopped(id): return node(id)
        case let .depend(computation, dependency): return node(computation) || node(dependency)
        case let .changed(dependency): return node(dependency)
        case let .invalidated(computation, _, source): return node(computation) || node(source)
        case let .rerunBegan(computation, _), let .rerunEnded(computation): return node(computation)
        case let .actionBegan(store, name, _):
            let owner = slot(store)
            return node(store) || matches(nameText(owner) + "." + strings[Int(name.index)])
        case let .actionEnded(store):
            if node(store) { return true }
            guard let frame = stacks[thread].last(where: { $0.isAction && $0.node == store }) else { return false }
            return matches(String(decoding: frame.label, as: UTF8.self))
        case .flushBegan, .flushEnded: return false
        case let .issue(_, id, _): return node(id)
        case let .value(id, _): return node(id)
        }
    }

    // MARK: - Formatting

    private mutating func format(_ event: PlainTraceEvent, _ strings: [String], kind: TraceEventKind, thread: Int,
                                 to out: ByteText) {
        let depth = stacks[thread].count
        let indent = kind == .rerunEnded || kind == .actionEnded ? max(0, depth - 1) : depth
        // time, right-aligned in 12 columns
        out.open("2")
        out.appendSpaces(12 - DurationText.timeWidth(event.timestamp))
        DurationText.appendTime(event.timestamp, to: out)
        out.close()
        out.appendSpaces(2)
        out.open("2")
        out.append(0x74)   // "t"
        out.appendDecimal(UInt64(event.thread))
        out.close()
        out.appendSpaces(2)
        out.append(kindColumns[Int(kind.rawValue)], of: arena)
        out.appendSpaces(2 + 2 * min(indent, 20))
        describe(event, strings, thread: thread, to: out)
        out.append(0x0A)
    }

    private mutating func describe(_ event: PlainTraceEvent, _ strings: [String], thread: Int, to out: ByteText) {
        switch event.record {
        case let .nodeCreated(id, _, _, parent):
            appendLabeled(of: id, to: out)
            if parent != 0 { dim(" in ", parent, out) }
        case let .nodeNamed(id, name, owner):
            out.append(0x23)   // "#"
            out.appendDecimal(id)
            out.append(" is ")
            Self.bold(TerminalEscaping.escape(strings[Int(name.index)]), out)
            if owner != 0 { dim(" of ", owner, out) }
        case let .nodeStopped(id):
            appendLabeled(of: id, to: out)
        case let .depend(computation, dependency):
            appendLabeled(of: computation, to: out)
            dim(" reads ", nil, out)
            appendLabeled(of: dependency, to: out)
        case let .changed(dependency):
            appendLabeled(of: dependency, to: out)
            let node = slot(dependency)
            if node < values.count, values[node].awaitsChange, let new = values[node].current {
                out.append(": ")
                out.append(TerminalEscaping.escape(values[node].previous ?? "?"))
                out.append(" → ")
                out.append(TerminalEscaping.escape(new))
            }
        case let .invalidated(computation, cause, source):
            appendLabeled(of: computation, to: out)
            out.append(0x20)
            switch cause {
            case .dependency: dim("by ", source, out)
            case .parent: dim("with its parent ", source, out)
            case .explicit: dim("explicitly", nil, out)
            case .stop: dim("by stop()", nil, out)
            case .runaway: dim("as a runaway", nil, out)
            case .error: dim("by an error", nil, out)
            }
        case let .rerunBegan(computation, firstRun):
            appendLabeled(of: computation, to: out)
            if firstRun { dim(" (first run)", nil, out) }
        case let .rerunEnded(computation):
            appendLabeled(of: computation, to: out)
            if let frame = stacks[thread].last(where: { $0.node == computation && !$0.isAction }) {
                out.append(0x20)
                out.open("2")
                DurationText.appendFormat(event.timestamp &- frame.begin, to: out)
                out.close()
            }
        case let .actionBegan(store, name, arguments):
            out.open("36")
            appendName(of: store, to: out)
            out.append(0x2E)   // "."
            out.append(TerminalEscaping.escape(strings[Int(name.index)]))
            out.close()
            let arguments = TerminalEscaping.escape(strings[Int(arguments.index)])
            if !arguments.isEmpty {
                out.append(0x20)
                out.append(arguments)
            }
        case let .actionEnded(store):
            let frame = stacks[thread].last { $0.isAction && $0.node == store }
            out.open("36")
            if let frame { out.append(frame.label) } else { appendName(of: store, to: out) }
            out.close()
            if let frame {
                out.append(0x20)
                out.open("2")
                DurationText.appendFormat(event.timestamp &- frame.begin, to: out)
                out.close()
            }
        case .flushBegan, .flushEnded:
            break
        case let .issue(kind, _, message):
            out.open("33")
            out.append(kind.label)
            out.close()
            out.append(": ")
            out.append(TerminalEscaping.escape(strings[Int(message.index)]))
        case let .value(node, value):
            appendLabeled(of: node, to: out)
            out.append(" = ")
            out.append(TerminalEscaping.escape(strings[Int(value.index)]))
        }
    }

    private mutating func applyNesting(_ event: PlainTraceEvent, _ strings: [String], thread: Int) {
        switch event.record {
        case let .rerunBegan(computation, _):
            stacks[thread].append(Frame(node: computation, begin: event.timestamp, isAction: false, label: []))
        case let .actionBegan(store, name, _):
            let owner = slot(store)
            let label = Array((nameText(owner) + "." + TerminalEscaping.escape(strings[Int(name.index)])).utf8)
            stacks[thread].append(Frame(node: store, begin: event.timestamp, isAction: true, label: label))
        case let .rerunEnded(node):
            pop(node, isAction: false, thread: thread)
        case let .actionEnded(store):
            pop(store, isAction: true, thread: thread)
        default:
            break
        }
    }

    private mutating func pop(_ node: UInt64, isAction: Bool, thread: Int) {
        // Almost always the innermost frame.
        if let last = stacks[thread].last, last.node == node, last.isAction == isAction {
            stacks[thread].removeLast()
        } else if let index = stacks[thread].lastIndex(where: { $0.node == node && $0.isAction == isAction }) {
            stacks[thread].removeSubrange(index...)
        }
    }

    // MARK: - Style

    private static func color(of kind: TraceEventKind) -> String? {
        switch kind {
        case .rerunBegan, .rerunEnded: "32"
        case .changed, .issue: "33"
        case .invalidated: "31"
        case .actionBegan, .actionEnded: "36"
        default: nil
        }
    }

    /// `text` then the name of node `id`, dimmed together.
    private mutating func dim(_ text: StaticString, _ id: UInt64?, _ out: ByteText) {
        out.open("2")
        out.append(text)
        if let id { appendName(of: id, to: out) }
        out.close()
    }

    private static func bold(_ text: String, _ out: ByteText) {
        out.open("1")
        out.append(text)
        out.close()
    }
}
