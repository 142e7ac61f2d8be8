import ReactorTraceFormat

/// Streams a trace as OTLP/JSON: one `ExportTraceServiceRequest` in the
/// protobuf JSON mapping with OTLP's deviations (hex trace and span ids,
/// integer enums, 64-bit integers as decimal strings), which an OpenTelemetry
/// collector takes on `POST /v1/traces`.
///
/// The recording is one OTel trace under a root span named after the service.
/// Every run, store action and flush is a span (kind INTERNAL), nested under
/// the span open on its thread when it began. A rerun links to the span where
/// the change that invalidated it happened (the action that wrote the
/// property, or the computed's run that produced a new value), with the
/// invalidation's cause and source as the link's attributes: the causal chain
/// change → invalidate → run. Changes (with the written value, in a trace
/// recorded with values), invalidations and issues are span events
/// of the span open on their thread (at most ``maxEventsPerSpan`` each, the
/// rest counted in `droppedEventsCount`).
///
/// It reads the events as the one importer resolves them
/// (``ImportedEventVisitor``): a span ends where the importer pairs its end
/// with its beginning, and a change carries the value the importer resolved.
/// Node names come from the finished ``TraceModel`` of the same trace, so spans
/// carry the names every other view shows, and there is one span per run the
/// model counts. Spans are written as they end: memory holds the open spans,
/// and per node the latest change's span, so it grows with nodes, not events.
public final class OTLPTraceExporter: ImportedEventVisitor {
    /// The most events one span carries, as OpenTelemetry SDKs limit by default.
    public static let maxEventsPerSpan = 128
    /// The instrumentation scope's name.
    public static let scopeName = "reactor-inspect"

    /// What a span stands for; its name is the `reactor.span.kind` attribute.
    public enum SpanKind: String, Sendable, CaseIterable {
        /// The whole recording: the root span.
        case recording
        /// One run of an autorun or computed.
        case run
        /// One store action.
        case action
        /// One flush of invalidated computations.
        case flush
    }

    enum Value {
        case string(String)
        case int(Int64)
        case bool(Bool)
    }

    struct SpanEvent {
        var time: UInt64
        var name: String
        var attributes: [(String, Value)]
    }

    struct Link {
        var span: UInt64
        var attributes: [(String, Value)]
    }

    struct Span {
        var kind: SpanKind
        var node: UInt64
        var id: UInt64
        var parent: UInt64
        var thread: UInt32
        var start: UInt64
        var name: String
        var attributes: [(String, Value)]
        var links: [Link] = []
        var events: [SpanEvent] = []
        var droppedEvents = 0
        var errorMessage: String?
    }

    /// Why a computation is invalidated, kept until its rerun.
    struct PendingCause {
        var cause: InvalidationCause
        var source: UInt64
        var span: UInt64?
    }

    private let model: TraceModel
    private let options: OTLPExportOptions
    private let output: ByteOutput
    private let traceIDText: String
    private var nextOrdinal: UInt64 = 1
    private var recording: Span
    /// Open spans per thread, innermost last.
    private var open: [UInt32: [Span]] = [:]
    private var lastTime: [UInt32: UInt64] = [:]
    /// The span in which each dependency last changed.
    private var changeSpan: [UInt64: UInt64] = [:]
    /// The span of each computation's latest finished run (a computed's change follows its run).
    private var lastRunSpan: [UInt64: UInt64] = [:]
    private var pending: [UInt64: PendingCause] = [:]
    /// The importer whose events are written (its own for ``record(_:)``).
    private var importer: TraceModelBuilder?
    /// The first write error met while visiting (visiting cannot throw); writing stops there.
    private var writeError: (any Error)?
    private var wroteSpan = false
    private var finished = false
    /// Spans written so far, by kind.
    public private(set) var spansWritten: [SpanKind: Int] = [:]

    /// Starts the request on `output`; `model` is the model of the trace whose
    /// events will follow (for node and action names).
    public init(model: TraceModel, output: ByteOutput, options: OTLPExportOptions) throws {
        self.model = model
        self.options = options
        self.output = output
        let traceID = options.traceID
        traceIDText = Self.hex(traceID.high) + Self.hex(traceID.low)
        recording = Span(kind: .recording, node: 0, id: options.spanID(0), parent: 0, thread: 0,
                         start: model.firstTimestamp, name: options.serviceName,
                         attributes: [("reactor.span.kind", .string(SpanKind.recording.rawValue))])
        try output.appendStatic("{\"resourceSpans\":[{\"resource\":{\"attributes\":[")
        var resource: [(String, Value)] = [("service.name", .string(options.serviceName))]
        if options.processID != 0 { resource.append(("process.pid", .int(Int64(options.processID)))) }
        if !options.traceFile.isEmpty { resource.append(("reactor.trace.file", .string(options.traceFile))) }
        try appendAttributeList(resource)
        try output.appendStatic("]},\"scopeSpans\":[{\"scope\":{\"name\":\"")
        output.appendJSONEscaped(Self.scopeName)
        try output.appendStatic("\"},\"spans\":[\n")
    }

    /// Builds the model of `events`, then exports them and finishes the request.
    public static func export(_ events: some Collection<TraceEvent>, to output: ByteOutput,
                              options: OTLPExportOptions) throws {
        let exporter = try OTLPTraceExporter(model: TraceModel(events: events), output: output, options: options)
        for event in events { try exporter.record(event) }
        try exporter.finish()
    }

    /// Takes the next event of the trace, importing it first (to share one
    /// import, pass the exporter to ``TraceModelBuilder/consume(_:visiting:)``
    /// with values tracked, and call ``finish()`` after).
    public func record(_ event: TraceEvent) throws {
        let importer = importer ?? TraceModelBuilder(options: TraceModelOptions(tracksValues: true))
        self.importer = importer
        var visitor = self
        importer.consume(event, visiting: &visitor)
        if let writeError { throw writeError }
    }

    /// Takes the next event as the importer resolved it.
    public func visit(_ event: ImportedEvent, from importer: TraceModelBuilder) {
        guard writeError == nil else { return }
        self.importer = importer
        do { try write(event, importer) } catch { writeError = error }
    }

    private func write(_ event: ImportedEvent, _ importer: TraceModelBuilder) throws {
        let thread = event.thread
        let time = event.time
        lastTime[thread] = time
        switch event.record {
        case .nodeCreated, .nodeNamed, .nodeStopped, .depend, .site, .value:
            break
        case .changed(let dependency):
            // A computed announces its new value right after its run: that run is where it changed.
            let span = model.node(dependency)?.kind == .computed ? lastRunSpan[dependency] : innermost(thread)?.id
            changeSpan[dependency] = span ?? recording.id
            var attributes: [(String, Value)] = [("reactor.node", .string(model.name(of: dependency)))]
            if event.value == .changed, let written = importer.value(ofNode: event.node) {
                attributes.append(("reactor.value", .string(written)))
            }
            addEvent(SpanEvent(time: time, name: "changed", attributes: attributes), thread: thread)
        case .invalidated(let computation, let cause, let source):
            var attributes: [(String, Value)] = [("reactor.node", .string(model.name(of: computation))),
                                                 ("reactor.cause", .string(cause.label))]
            let span: UInt64?
            switch cause {
            case .dependency:
                span = changeSpan[source]
                attributes.append(("reactor.cause.node", .string(model.name(of: source))))
            case .parent:
                span = pending[source]?.span
                attributes.append(("reactor.cause.node", .string(model.name(of: source))))
            case .explicit, .stop, .runaway, .error:
                span = innermost(thread)?.id
            }
            pending[computation] = PendingCause(cause: cause, source: source, span: span)
            addEvent(SpanEvent(time: time, name: "invalidated", attributes: attributes), thread: thread)
        case .rerunBegan(let computation, let firstRun):
            let kind = model.node(computation)?.kind ?? .computation
            var span = begin(.run, node: computation, name: model.name(of: computation), thread: thread, at: time,
                             attributes: [("reactor.node.id", .int(Int64(truncatingIfNeeded: computation))),
                                          ("reactor.node.kind", .string(kind.label)),
                                          ("reactor.run.first", .bool(firstRun))])
            if !firstRun, let cause = pending.removeValue(forKey: computation) {
                var attributes: [(String, Value)] = [("reactor.cause", .string(cause.cause.label))]
                if cause.source != 0 { attributes.append(("reactor.cause.node", .string(model.name(of: cause.source)))) }
                span.attributes += attributes
                if let target = cause.span, target != recording.id { span.links.append(Link(span: target, attributes: attributes)) }
            }
            open[thread, default: []].append(span)
        case .rerunEnded(let computation):
            // As the importer pairs them: the innermost run of this computation ends,
            // and runs or actions still open inside it end with it, unfinished.
            guard event.slice != nil, let depth = open[thread]?.lastIndex(where: { $0.kind == .run && $0.node == computation }) else { return }
            var index = open[thread]!.count - 1
            while index > depth {
                if open[thread]![index].kind != .flush {
                    let inner = open[thread]!.remove(at: index)
                    try write(inner, end: time, unfinished: true)
                }
                index -= 1
            }
            let span = open[thread]!.remove(at: depth)
            lastRunSpan[computation] = span.id
            try write(span, end: time, unfinished: false)
        case .actionBegan(let store, let name, let arguments):
            let name = importer.string(name), arguments = importer.string(arguments)
            let qualified = importer.actionName(event.action)
            var attributes: [(String, Value)] = [("reactor.store", .string(model.name(of: store))),
                                                 ("reactor.action", .string(name))]
            if !arguments.isEmpty { attributes.append(("reactor.action.arguments", .string(arguments))) }
            let span = begin(.action, node: store, name: qualified, thread: thread, at: time, attributes: attributes)
            open[thread, default: []].append(span)
        case .actionEnded(let store):
            guard event.slice != nil, let depth = open[thread]?.lastIndex(where: { $0.kind == .action && $0.node == store }) else { return }
            try write(open[thread]!.remove(at: depth), end: time, unfinished: false)
        case .flushBegan:
            open[thread, default: []].append(begin(.flush, node: 0, name: "flush", thread: thread, at: time, attributes: []))
        case .flushEnded:
            guard event.slice != nil, let depth = open[thread]?.lastIndex(where: { $0.kind == .flush }) else { return }
            try write(open[thread]!.remove(at: depth), end: time, unfinished: false)
        case .issue(let kind, let node, let message):
            let message = importer.string(message)
            var attributes: [(String, Value)] = [("reactor.issue", .string(kind.budgetName)), ("reactor.message", .string(message))]
            if node != 0 { attributes.append(("reactor.node", .string(model.name(of: node)))) }
            addEvent(SpanEvent(time: time, name: "issue", attributes: attributes), thread: thread)
            if kind == .uncaughtError || kind == .runaway,
               let index = open[thread]?.lastIndex(where: { $0.kind == .run && $0.node == node }) {
                open[thread]![index].errorMessage = message
            }
        }
    }

    /// Ends the spans a truncated trace left open (at their thread's last
    /// event, marked `reactor.unfinished`), writes the recording span and
    /// closes the request.
    public func finish() throws {
        if let writeError { throw writeError }
        guard !finished else { return }
        finished = true
        for thread in open.keys.sorted() {
            let time = lastTime[thread] ?? 0
            while let span = open[thread]?.popLast() { try write(span, end: time, unfinished: true) }
        }
        recording.attributes += [("reactor.events", .int(Int64(model.totalEvents))),
                                ("reactor.threads", .int(Int64(model.threadCount)))]
        try write(recording, end: max(model.lastTimestamp, recording.start), unfinished: false)
        try output.appendStatic("\n]}]}]}\n")
        try output.flush()
    }

    // MARK: - Spans

    private func innermost(_ thread: UInt32) -> Span? {
        open[thread]?.last
    }

    private func begin(_ kind: SpanKind, node: UInt64, name: String, thread: UInt32, at time: UInt64,
                       attributes: [(String, Value)]) -> Span {
        let id = options.spanID(nextOrdinal)
        nextOrdinal += 1
        return Span(kind: kind, node: node, id: id, parent: innermost(thread)?.id ?? recording.id, thread: thread,
                    start: time, name: name, attributes: [("reactor.span.kind", .string(kind.rawValue)),
                                                          ("thread.id", .int(Int64(thread)))] + attributes)
    }

    private func addEvent(_ event: SpanEvent, thread: UInt32) {
        if let index = open[thread]?.indices.last {
            if open[thread]![index].events.count < Self.maxEventsPerSpan {
                open[thread]![index].events.append(event)
            } else {
                open[thread]![index].droppedEvents += 1
            }
        } else if recording.events.count < Self.maxEventsPerSpan {
            recording.events.append(event)
        } else {
            recording.droppedEvents += 1
        }
    }

    private func write(_ span: Span, end: UInt64, unfinished: Bool) throws {
        if wroteSpan { try output.appendStatic(",\n") }
        wroteSpan = true
        spansWritten[span.kind, default: 0] += 1
        try output.appendStatic("{\"traceId\":\"")
        try output.append(traceIDText)
        try output.appendStatic("\",\"spanId\":\"")
        try output.append(Self.hex(span.id))
        if span.parent != 0 {
            try output.appendStatic("\",\"parentSpanId\":\"")
            try output.append(Self.hex(span.parent))
        }
        try output.appendStatic("\",\"name\":\"")
        output.appendJSONEscaped(span.name)
        // SPAN_KIND_INTERNAL: work inside one process.
        try output.appendStatic("\",\"kind\":1,\"startTimeUnixNano\":\"")
        output.appendDecimal(unixTime(span.start))
        try output.appendStatic("\",\"endTimeUnixNano\":\"")
        output.appendDecimal(unixTime(max(end, span.start)))
        try output.appendStatic("\",\"attributes\":[")
        try appendAttributeList(unfinished ? span.attributes + [("reactor.unfinished", .bool(true))] : span.attributes)
        try output.appendStatic("]")
        if !span.events.isEmpty {
            try output.appendStatic(",\"events\":[")
            for (index, event) in span.events.enumerated() {
                try output.appendStatic(index == 0 ? "{\"timeUnixNano\":\"" : ",{\"timeUnixNano\":\"")
                output.appendDecimal(unixTime(event.time))
                try output.appendStatic("\",\"name\":\"")
                output.appendJSONEscaped(event.name)
                try output.appendStatic("\",\"attributes\":[")
                try appendAttributeList(event.attributes)
                try output.appendStatic("]}")
            }
            try output.appendStatic("]")
        }
        if span.droppedEvents > 0 {
            try output.appendStatic(",\"droppedEventsCount\":")
            output.appendDecimal(UInt64(span.droppedEvents))
        }
        if !span.links.isEmpty {
            try output.appendStatic(",\"links\":[")
            for (index, link) in span.links.enumerated() {
                try output.appendStatic(index == 0 ? "{\"traceId\":\"" : ",{\"traceId\":\"")
                try output.append(traceIDText)
                try output.appendStatic("\",\"spanId\":\"")
                try output.append(Self.hex(link.span))
                try output.appendStatic("\",\"attributes\":[")
                try appendAttributeList(link.attributes)
                try output.appendStatic("]}")
            }
            try output.appendStatic("]")
        }
        if let message = span.errorMessage {
            // STATUS_CODE_ERROR.
            try output.appendStatic(",\"status\":{\"code\":2,\"message\":\"")
            output.appendJSONEscaped(message)
            try output.appendStatic("\"}")
        }
        try output.appendStatic("}")
    }

    private func appendAttributeList(_ attributes: [(String, Value)]) throws {
        for (index, (key, value)) in attributes.enumerated() {
            try output.appendStatic(index == 0 ? "{\"key\":\"" : ",{\"key\":\"")
            output.appendJSONEscaped(key)
            switch value {
            case .string(let text):
                try output.appendStatic("\",\"value\":{\"stringValue\":\"")
                output.appendJSONEscaped(text)
                try output.appendStatic("\"}}")
            case .int(let number):
                // int64 is a decimal string in the protobuf JSON mapping.
                try output.appendStatic("\",\"value\":{\"intValue\":\"")
                try output.append(String(number))
                try output.appendStatic("\"}}")
            case .bool(let flag):
                try output.appendStatic(flag ? "\",\"value\":{\"boolValue\":true}}" : "\",\"value\":{\"boolValue\":false}}")
            }
        }
    }

    private func unixTime(_ traceTime: UInt64) -> UInt64 {
        options.wallStartNanoseconds.saturatingAdd(traceTime)
    }

    /// 16 lowercase hex digits.
    static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
