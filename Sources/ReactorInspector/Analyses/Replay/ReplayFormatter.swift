import ReactorTraceFormat

/// Turns the event stream into text lines, one an event, as it streams. It
/// reads each event as the one importer (``TraceModelBuilder``) resolves it
/// (``ImportedEvent``): names, nesting and durations are the model's, so the
/// replay shows the names, runs and pairings every other view shows. Memory
/// grows with nodes only.
///
/// In a trace recorded with values, a node's first value is a `value` line
/// (`value  property TodoStore.filter = all`) and each later one is folded into
/// the `changed` line of the write that follows it:
/// `changed  property TodoStore.filter: all → active`.
///
/// Lines are built as UTF-8 bytes (``write(_:to:)``), with each node's name
/// and label rendered once when the importer learns it: `replay` prints tens
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

    /// A node's name as rendered for lines, by the importer's node position:
    /// ranges of ``arena``, so that copying it retains nothing. Rendered when
    /// first shown and again when the importer learns a new name or kind.
    private struct NodeText {
        /// The name as shown (escaped for the terminal).
        var name: Range<Int>
        /// `kind ` + bold name (or the bold name alone for a node the trace only refers to).
        var labeled: Range<Int>
        /// The name contains one of the filter's names (case-insensitive).
        var matches: Bool
    }

    /// Hands the importer's event back to the formatter.
    private struct Handoff: ImportedEventVisitor {
        var event: ImportedEvent?
        mutating func visit(_ event: ImportedEvent, from importer: TraceModelBuilder) { self.event = event }
    }

    /// The one importer: it builds the model the lines are read from (shared by copies).
    private let importer: TraceModelBuilder
    /// Rendered names by node position (nil: not rendered, or renamed since),
    /// in a box shared by copies, as the line and the arena are.
    private final class NodeTexts {
        // Read for every name on every line, from one thread: no dynamic exclusivity checks.
        @exclusivity(unchecked) var entries: [NodeText?] = []
    }

    /// Appends the lines of a batch's events to the formatter's ``text``, one
    /// after the other, as the importer hands them on.
    private struct BatchLines: ImportedEventVisitor {
        let formatter: ReplayFormatter
        func visit(_ event: ImportedEvent, from importer: TraceModelBuilder) {
            _ = formatter.append(event, importer)
        }
    }

    private let texts = NodeTexts()
    private let loweredNames: [String]
    /// Per kind's raw value, whether the filter keeps it (a table: asked for every event read).
    private let keptKinds: [Bool]
    /// The line being built, reused (its storage is shared by copies of the formatter).
    private let text = ByteText()
    /// Node names and labels, and each kind's column (coloured and padded), end to end.
    private let arena = ByteText(capacity: 4_096)
    /// Each kind's column in ``arena``, by raw value.
    private let kindColumns: [Range<Int>]
    /// The padded whole milliseconds of the latest line's time (`   1234.`):
    /// most lines share them with the one before.
    private let timePrefix = TimePrefix()

    /// A rendered time prefix and the millisecond it is for.
    private final class TimePrefix {
        @exclusivity(unchecked) var milliseconds = UInt64.max
        let text = ByteText(capacity: 32)
    }

    /// Creates a formatter with its own importer; with `lookahead` (``TraceLookahead/read(path:)``)
    /// every write's old → new follows time order across threads and every node shows its final name.
    public init(filter: ReplayFilter = ReplayFilter(), style: TextStyle = .plain, json: Bool = false,
                lookahead: TraceLookahead? = nil) {
        var options = TraceModelOptions(tracksValues: true)
        options.lookahead = lookahead
        self.init(filter: filter, style: style, json: json, importer: TraceModelBuilder(options: options))
    }

    /// Creates a formatter whose importer is `importer` (one restored from an index's snapshot:
    /// ``TraceIndexSession``); lines follow from the state it holds.
    init(filter: ReplayFilter, style: TextStyle, json: Bool, importer: TraceModelBuilder) {
        self.importer = importer
        self.filter = filter
        self.style = json ? .plain : style
        self.json = json
        loweredNames = filter.names.map { $0.lowercased() }
        keptKinds = (0..<256).map { raw in
            filter.kinds.map { kinds in TraceEventKind(rawValue: UInt8(raw)).map(kinds.contains) ?? false } ?? true
        }
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

    /// Appends the lines of every event of `batch` the filter keeps to
    /// `output`, each with its newline: the fastest way through a trace, one
    /// import pass over the whole batch.
    public mutating func write(_ batch: borrowing TraceEventBatch, to output: inout [UInt8]) {
        withLines(of: batch) { output.append(contentsOf: $0) }
    }

    /// Calls `body` once with the UTF-8 of the lines of every event of
    /// `batch` the filter keeps, each with its newline (nothing when it keeps
    /// none): as ``write(_:to:)-(TraceEventBatch,_)``, without copying the
    /// lines out. The bytes are only valid inside `body`.
    public mutating func withLines(of batch: borrowing TraceEventBatch, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        var lines = BatchLines(formatter: self)
        text.clear()
        importer.consume(batch, visiting: &lines)
        if text.count > 0 { body(text.bytes) }
    }

    /// Calls `body` once per line of the events of `batch` the filter keeps, in order, with
    /// its UTF-8 and newline (valid only inside `body`): as ``withLines(of:_:)``, a line at a time.
    func withEachLine(of batch: borrowing TraceEventBatch, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        withoutActuallyEscaping(body) { body in
            var lines = EachLine(formatter: self, body: body)
            importer.consume(batch, visiting: &lines)
        }
    }

    /// Renders every node again when next shown: the importer learned names or kinds from
    /// elsewhere than the events handed through the formatter (chunks it did not read).
    func forgetRenderedNames() {
        texts.entries.removeAll(keepingCapacity: true)
    }

    /// Hands each line to `body` as the importer hands its event on.
    private struct EachLine: ImportedEventVisitor {
        let formatter: ReplayFormatter
        let body: (UnsafeBufferPointer<UInt8>) -> Void
        func visit(_ event: ImportedEvent, from importer: TraceModelBuilder) {
            formatter.text.clear()
            if formatter.append(event, importer) { body(formatter.text.bytes) }
        }
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
        let importer = importer
        var handoff = Handoff()
        importer.consume(event, visiting: &handoff)
        guard let imported = handoff.event else { return false }
        return build(imported, importer)
    }

    /// Builds the line for `event` in `text`; false when the filter drops it.
    private mutating func build(_ event: PlainTraceEvent, _ strings: [String]) -> Bool {
        let importer = importer
        var handoff = Handoff()
        importer.consume(event, strings: strings, visiting: &handoff)
        guard let imported = handoff.event else { return false }
        return build(imported, importer)
    }

    private func build(_ event: ImportedEvent, _ importer: TraceModelBuilder) -> Bool {
        text.clear()
        return append(event, importer)
    }

    /// Appends the line for `event` to ``text`` after what it holds; false when the filter drops it.
    private func append(_ event: ImportedEvent, _ importer: TraceModelBuilder) -> Bool {
        guard isShown(event, importer) else { return false }
        if json {
            text.append(jsonLine(event, importer, kind: event.kind))
        } else {
            format(event, importer, kind: event.kind, to: text)
        }
        return true
    }

    /// True if `event` gets a line (the filter keeps it, and a write's value folds into its change).
    private func isShown(_ event: ImportedEvent, _ importer: TraceModelBuilder) -> Bool {
        let kind = event.kind
        switch event.record {
        case .nodeCreated, .nodeNamed:
            // The importer learned a name or kind: render the node again when next shown.
            if event.node >= 0, Int(event.node) < texts.entries.count { texts.entries[Int(event.node)] = nil }
        case .value:
            // In text, a write's new value folds into its `changed` line, unless value lines are
            // what was asked for; JSON keeps one object an event.
            if event.value != .first, !json, filter.kinds?.contains(.value) != true { return false }
        default:
            break
        }
        // Filter before formatting: most events of a large trace are dropped.
        return isKept(event, importer, kind: kind)
    }

    // MARK: - JSON lines

    /// The event as one JSON object and a newline.
    private func jsonLine(_ event: ImportedEvent, _ importer: TraceModelBuilder, kind: TraceEventKind) -> String {
        func name(_ id: UInt64) -> String { JSONText.quoted(rawName(id, importer)) }
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
            if event.value == .changed, let (previous, new) = importer.changedValues {
                if let previous { fields.append(("previousValue", JSONText.quoted(previous))) }
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
            if let slice = event.slice { fields.append(("durationNanoseconds", String(slice.durationNanoseconds))) }
        case let .actionBegan(_, _, arguments):
            primary = JSONText.quoted(importer.actionName(event.action))
            fields.append(("arguments", JSONText.quoted(importer.string(arguments))))
        case let .actionEnded(store):
            if let slice = event.slice {
                primary = JSONText.quoted(importer.actionName(event.action))
                fields.append(("durationNanoseconds", String(slice.durationNanoseconds)))
            } else {
                primary = name(store)
            }
        case .flushBegan, .flushEnded:
            primary = "\"flush\""
        case let .issue(issueKind, node, message):
            primary = node == 0 ? JSONText.quoted(issueKind.label) : name(node)
            fields.append(("issue", JSONText.quoted(issueKind.label)))
            fields.append(("message", JSONText.quoted(importer.string(message))))
        case let .value(node, value):
            primary = name(node)
            fields.append(("value", JSONText.quoted(importer.string(value))))
        case let .site(node, site, isActionCall):
            primary = name(node)
            fields.append(("site", JSONText.quoted(importer.string(site))))
            fields.append(("actionCall", isActionCall ? "true" : "false"))
        }
        var line = "{\"timeNanoseconds\":\(event.time),\"thread\":\(event.thread),\"kind\":\"\(kind.name)\",\"name\":\(primary)"
        for (key, value) in fields { line += ",\"\(key)\":\(value)" }
        return line + "}\n"
    }

    // MARK: - Names

    /// The model's name of node `id` (`#id` for one the importer never saw).
    private func rawName(_ id: UInt64, _ importer: TraceModelBuilder) -> String {
        importer.position(ofNode: id).map { importer.name(ofNode: $0) } ?? TraceNode.unnamed(id, createdAs: nil)
    }

    /// Node `id`'s rendered name, rendering it the first time it is shown after the importer learned it.
    private func rendered(_ id: UInt64, _ importer: TraceModelBuilder) -> NodeText {
        guard let position = importer.position(ofNode: id) else { return render(id, importer) }
        let slot = Int(position)
        if slot < texts.entries.count, let known = texts.entries[slot] { return known }
        let rendered = render(id, importer)
        if slot >= texts.entries.count {
            texts.entries.append(contentsOf: repeatElement(nil, count: slot - texts.entries.count + 1))
        }
        texts.entries[slot] = rendered
        return rendered
    }

    /// Appends node `id`'s name and label to the arena. (A renamed node adds its
    /// new text; names change once or twice a node, so this grows with nodes.)
    private func render(_ id: UInt64, _ importer: TraceModelBuilder) -> NodeText {
        let position = importer.position(ofNode: id)
        let display = position.map { importer.name(ofNode: $0) } ?? TraceNode.unnamed(id, createdAs: nil)
        let kind = position.flatMap { importer.createdKind(ofNode: $0) }
        let shown = TerminalEscaping.escape(display)
        let labeled = kind.map { $0.label + " " + style.bold(shown) } ?? style.bold(shown)
        return NodeText(name: Self.store(shown, in: arena), labeled: Self.store(labeled, in: arena),
                        matches: matches(display))
    }

    /// Appends `text` to `arena`, returning where it is.
    private static func store(_ text: String, in arena: ByteText) -> Range<Int> {
        let start = arena.count
        arena.append(text)
        return start..<arena.count
    }

    private func appendName(of id: UInt64, _ importer: TraceModelBuilder, to out: ByteText) {
        out.append(rendered(id, importer).name, of: arena)
    }

    private func appendLabeled(of id: UInt64, _ importer: TraceModelBuilder, to out: ByteText) {
        out.append(rendered(id, importer).labeled, of: arena)
    }

    private func matches(_ name: String) -> Bool {
        guard !loweredNames.isEmpty else { return false }
        let lowered = name.lowercased()
        return loweredNames.contains { lowered.contains($0) }
    }

    // MARK: - Filtering

    private func isKept(_ event: ImportedEvent, _ importer: TraceModelBuilder, kind: TraceEventKind) -> Bool {
        if let from = filter.from, event.time < from { return false }
        if let to = filter.to, event.time > to { return false }
        if !keptKinds[Int(kind.rawValue)] { return false }
        if !loweredNames.isEmpty && !matchesName(event, importer) { return false }
        return true
    }

    /// True if a node the event involves, or the action it begins or ends, has a matching name.
    private func matchesName(_ event: ImportedEvent, _ importer: TraceModelBuilder) -> Bool {
        func node(_ id: UInt64) -> Bool { id != 0 && rendered(id, importer).matches }
        switch event.record {
        case let .nodeCreated(id, _, _, parent): return node(id) || node(parent)
        case let .nodeNamed(id, _, owner): return node(id) || node(owner)
        case let .nodeStopped(id): return node(id)
        case let .depend(computation, dependency): return node(computation) || node(dependency)
        case let .changed(dependency): return node(dependency)
        case let .invalidated(computation, _, source): return node(computation) || node(source)
        case let .rerunBegan(computation, _), let .rerunEnded(computation): return node(computation)
        case let .actionBegan(store, _, _):
            return node(store) || matches(importer.actionName(event.action))
        case let .actionEnded(store):
            return node(store) || (event.slice != nil && matches(importer.actionName(event.action)))
        case .flushBegan, .flushEnded: return false
        case let .issue(_, id, _): return node(id)
        case let .value(id, _): return node(id)
        case let .site(id, _, _): return node(id)
        }
    }

    // MARK: - Formatting

    private func format(_ event: ImportedEvent, _ importer: TraceModelBuilder, kind: TraceEventKind,
                                 to out: ByteText) {
        // time, right-aligned in 12 columns: DurationText.appendTime's form, its whole milliseconds rendered once
        out.open("2")
        let microseconds = event.time / 1_000
        if microseconds / 1_000 != timePrefix.milliseconds {
            timePrefix.milliseconds = microseconds / 1_000
            timePrefix.text.clear()
            timePrefix.text.appendSpaces(12 - DurationText.timeWidth(event.time))
            timePrefix.text.appendDecimal(microseconds / 1_000)
            timePrefix.text.append(0x2E)   // "."
        }
        out.append(timePrefix.text.bytes)
        out.appendThreeDigits(microseconds % 1_000)
        out.append(" ms")
        out.close()
        out.appendSpaces(2)
        out.open("2")
        out.append(0x74)   // "t"
        out.appendDecimal(UInt64(event.thread))
        out.close()
        out.appendSpaces(2)
        out.append(kindColumns[Int(kind.rawValue)], of: arena)
        out.appendSpaces(2 + 2 * min(event.depth, 20))
        describe(event, importer, to: out)
        out.append(0x0A)
    }

    private func describe(_ event: ImportedEvent, _ importer: TraceModelBuilder, to out: ByteText) {
        switch event.record {
        case let .nodeCreated(id, _, _, parent):
            appendLabeled(of: id, importer, to: out)
            if parent != 0 { dim(" in ", parent, importer, out) }
        case let .nodeNamed(id, name, owner):
            out.append(0x23)   // "#"
            out.appendDecimal(id)
            out.append(" is ")
            Self.bold(TerminalEscaping.escape(importer.string(name)), out)
            if owner != 0 { dim(" of ", owner, importer, out) }
        case let .nodeStopped(id):
            appendLabeled(of: id, importer, to: out)
        case let .depend(computation, dependency):
            appendLabeled(of: computation, importer, to: out)
            dim(" reads ", nil, importer, out)
            appendLabeled(of: dependency, importer, to: out)
        case let .changed(dependency):
            appendLabeled(of: dependency, importer, to: out)
            if event.value == .changed, let (previous, new) = importer.changedValues {
                out.append(": ")
                out.append(TerminalEscaping.escape(previous ?? "?"))
                out.append(" → ")
                out.append(TerminalEscaping.escape(new))
            }
        case let .invalidated(computation, cause, source):
            appendLabeled(of: computation, importer, to: out)
            out.append(0x20)
            switch cause {
            case .dependency: dim("by ", source, importer, out)
            case .parent: dim("with its parent ", source, importer, out)
            case .explicit: dim("explicitly", nil, importer, out)
            case .stop: dim("by stop()", nil, importer, out)
            case .runaway: dim("as a runaway", nil, importer, out)
            case .error: dim("by an error", nil, importer, out)
            }
        case let .rerunBegan(computation, firstRun):
            appendLabeled(of: computation, importer, to: out)
            if firstRun { dim(" (first run)", nil, importer, out) }
        case let .rerunEnded(computation):
            appendLabeled(of: computation, importer, to: out)
            if let slice = event.slice {
                out.append(0x20)
                out.open("2")
                DurationText.appendFormat(slice.durationNanoseconds, to: out)
                out.close()
            }
        case let .actionBegan(store, name, arguments):
            out.open("36")
            appendName(of: store, importer, to: out)
            out.append(0x2E)   // "."
            out.append(TerminalEscaping.escape(importer.string(name)))
            out.close()
            let arguments = TerminalEscaping.escape(importer.string(arguments))
            if !arguments.isEmpty {
                out.append(0x20)
                out.append(arguments)
            }
        case let .actionEnded(store):
            out.open("36")
            if let slice = event.slice {
                out.append(TerminalEscaping.escape(importer.actionName(event.action)))
                out.close()
                out.append(0x20)
                out.open("2")
                DurationText.appendFormat(slice.durationNanoseconds, to: out)
                out.close()
            } else {
                appendName(of: store, importer, to: out)
                out.close()
            }
        case .flushBegan, .flushEnded:
            break
        case let .issue(kind, _, message):
            out.open("33")
            out.append(kind.label)
            out.close()
            out.append(": ")
            out.append(TerminalEscaping.escape(importer.string(message)))
        case let .value(node, value):
            appendLabeled(of: node, importer, to: out)
            out.append(" = ")
            out.append(TerminalEscaping.escape(importer.string(value)))
        case let .site(node, site, isActionCall):
            appendLabeled(of: node, importer, to: out)
            out.append(isActionCall ? " action called at " : " created at ")
            out.append(TerminalEscaping.escape(importer.string(site)))
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
    private func dim(_ text: StaticString, _ id: UInt64?, _ importer: TraceModelBuilder, _ out: ByteText) {
        out.open("2")
        out.append(text)
        if let id { appendName(of: id, importer, to: out) }
        out.close()
    }

    private static func bold(_ text: String, _ out: ByteText) {
        out.open("1")
        out.append(text)
        out.close()
    }
}
