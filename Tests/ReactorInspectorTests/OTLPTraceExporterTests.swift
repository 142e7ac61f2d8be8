import Foundation
import Testing
import ReactorCore
import ReactorTrace
@testable import ReactorInspector

@Suite struct OTLPTraceExporterTests {
    static let options = OTLPExportOptions(serviceName: "todos", wallStartNanoseconds: 1_700_000_000_000_000_000,
                                           monotonicStartNanoseconds: 42, processID: 7, traceFile: "todos.trace")

    func export(_ events: [TraceEvent], options: OTLPExportOptions = options, capacity: Int = 1 << 16) throws -> Data {
        var bytes: [UInt8] = []
        let output = ByteOutput(capacity: capacity) { bytes += $0 }
        try OTLPTraceExporter.export(events, to: output, options: options)
        return Data(bytes)
    }

    /// The spans of an export, and its resource attributes.
    func spans(_ data: Data) throws -> (spans: [[String: Any]], resource: [String: Any]) {
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let resourceSpans = try #require(root["resourceSpans"] as? [[String: Any]])
        #expect(resourceSpans.count == 1)
        let resource = try #require(resourceSpans[0]["resource"] as? [String: Any])
        let scopes = try #require(resourceSpans[0]["scopeSpans"] as? [[String: Any]])
        let spans = try #require(scopes.first?["spans"] as? [[String: Any]])
        return (spans, try attributes(resource))
    }

    /// `[{key, value: {stringValue|intValue|boolValue}}]` as a dictionary.
    func attributes(_ object: [String: Any]) throws -> [String: Any] {
        var result: [String: Any] = [:]
        for entry in object["attributes"] as? [[String: Any]] ?? [] {
            let key = try #require(entry["key"] as? String)
            let value = try #require(entry["value"] as? [String: Any])
            #expect(value.count == 1, "one value per attribute")
            result[key] = value["stringValue"] ?? value["intValue"] ?? value["boolValue"]
        }
        return result
    }

    func kind(_ span: [String: Any]) throws -> String? {
        try attributes(span)["reactor.span.kind"] as? String
    }

    @Test func oneSpanPerRunActionAndFlushOfTheModel() throws {
        let events = TraceScript.todos(count: 3)
        let model = TraceModel(events: events)
        let (spans, resource) = try spans(try export(events))
        var counts: [String: Int] = [:]
        for span in spans { counts[try kind(span) ?? "none", default: 0] += 1 }
        let runs = model.nodes.filter(\.isComputation).reduce(0) { $0 + $1.runs.runs }
        #expect(counts["run"] == runs)
        #expect(runs == 3 + 3 * 3)
        #expect(counts["action"] == model.actions.reduce(0) { $0 + $1.count })
        #expect(counts["flush"] == model.flushes.count)
        #expect(counts["recording"] == 1)
        #expect(counts.count == 4)
        #expect(resource["service.name"] as? String == "todos")
        #expect(resource["process.pid"] as? String == "7")        // int64 as a decimal string
        #expect(resource["reactor.trace.file"] as? String == "todos.trace")
    }

    @Test func spansNestPerThreadAndLinkToTheChangeThatCausedThem() throws {
        let (spans, _) = try spans(try export(TraceScript.todos(count: 1)))
        let byID = Dictionary(uniqueKeysWithValues: spans.map { ($0["spanId"] as! String, $0) })
        func named(_ name: String, first: Bool) throws -> [String: Any] {
            try #require(spans.first { $0["name"] as? String == name
                && (try? attributes($0)["reactor.run.first"] as? Bool) == first })
        }
        let recording = try #require(spans.first { (try? kind($0)) == "recording" })
        #expect(recording["parentSpanId"] == nil)
        #expect(recording["name"] as? String == "todos")
        let action = try #require(spans.first { $0["name"] as? String == "TodoStore.addTodo(_:)" })
        #expect(action["parentSpanId"] as? String == recording["spanId"] as? String)
        let flush = try #require(spans.first { $0["name"] as? String == "flush" })
        #expect(flush["parentSpanId"] as? String == action["spanId"] as? String)
        let visible = try named("visibleTodos", first: false)
        #expect(visible["parentSpanId"] as? String == flush["spanId"] as? String)
        // visibleTodos reran because the action wrote TodoStore.todos: its link is the action span.
        let visibleLinks = try #require(visible["links"] as? [[String: Any]])
        #expect(visibleLinks.count == 1)
        #expect(visibleLinks[0]["spanId"] as? String == action["spanId"] as? String)
        #expect(try attributes(visibleLinks[0])["reactor.cause.node"] as? String == "TodoStore.todos")
        // The list reran because visibleTodos.value changed during visibleTodos' run.
        let list = try named("TodoList.list", first: false)
        let listLink = try #require((list["links"] as? [[String: Any]])?.first)
        #expect(listLink["spanId"] as? String == visible["spanId"] as? String)
        #expect(try attributes(list)["reactor.cause"] as? String == "dependency")
        #expect(byID[listLink["spanId"] as! String] != nil)
        // First runs have no cause to link to.
        #expect(try named("TodoList.list", first: true)["links"] == nil)
        // The change and the invalidation are events of the span they happened in.
        let actionEvents = try #require(action["events"] as? [[String: Any]])
        #expect(actionEvents.map { $0["name"] as? String } == ["changed", "invalidated"])
        #expect(actionEvents[0]["timeUnixNano"] as? String == action["startTimeUnixNano"] as? String)
    }

    @Test func idsAreHexOfTheRightLengthUniqueAndDerivedFromTheTrace() throws {
        let events = TraceScript.todos(count: 2)
        let first = try export(events)
        #expect(try export(events, capacity: 64) == first)        // same trace, same bytes
        let (spans, _) = try spans(first)
        let hex = Set("0123456789abcdef")
        var ids = Set<String>()
        for span in spans {
            let traceID = try #require(span["traceId"] as? String)
            let spanID = try #require(span["spanId"] as? String)
            #expect(traceID.count == 32 && traceID.allSatisfy(hex.contains))
            #expect(spanID.count == 16 && spanID.allSatisfy(hex.contains))
            #expect(ids.insert(spanID).inserted)
            #expect(span["kind"] as? Int == 1)
            let start = try #require(UInt64(span["startTimeUnixNano"] as? String ?? ""))
            let end = try #require(UInt64(span["endTimeUnixNano"] as? String ?? ""))
            #expect(start >= Self.options.wallStartNanoseconds && end >= start)
        }
        #expect(Set(spans.map { $0["traceId"] as! String }).count == 1)
        var other = Self.options
        other.wallStartNanoseconds += 1
        let (otherSpans, _) = try self.spans(try export(events, options: other))
        #expect(otherSpans[0]["traceId"] as? String != spans[0]["traceId"] as? String)
    }

    @Test func runTimesAreTheTracesOffsetByTheWallStart() throws {
        var script = TraceScript()
        script.add(.nodeCreated(id: 9, kind: .computation, name: "timed", parent: 0))
        script.add(.rerunBegan(computation: 9, firstRun: true), advance: 500)
        script.add(.rerunEnded(computation: 9), advance: 1_234)
        let model = TraceModel(events: script.events)
        let (spans, _) = try spans(try export(script.events))
        let run = try #require(spans.first { $0["name"] as? String == "timed" })
        let start = try #require(UInt64(run["startTimeUnixNano"] as? String ?? ""))
        let end = try #require(UInt64(run["endTimeUnixNano"] as? String ?? ""))
        #expect(start == Self.options.wallStartNanoseconds + 1_500)
        #expect(end - start == model.nodes.first { $0.id == 9 }!.runs.totalNanoseconds)
    }

    @Test func aTruncatedTraceEndsItsOpenSpansUnfinished() throws {
        var events = TraceScript.todos(count: 2)
        // Cut inside the second action's flush, during the list's rerun.
        let cut = try #require(events.lastIndex { $0.record == .rerunBegan(computation: TraceScript.list, firstRun: false) })
        events.removeSubrange((cut + 1)...)
        let model = TraceModel(events: events)
        let (spans, _) = try spans(try export(events))
        let unfinished = try spans.filter { try attributes($0)["reactor.unfinished"] as? Bool == true }
        #expect(try unfinished.compactMap { try kind($0) }.sorted() == ["action", "flush", "run"])
        #expect(try spans.filter { try kind($0) == "run" }.count == model.nodes.reduce(0) { $0 + $1.runs.runs })
        #expect(model.unfinishedRuns == 1)
    }

    /// A run still open when the run around it ends (its body threw past it) ends with that
    /// run (docs/METRICS.md, "Unfinished runs"): the model and both exports give it one duration.
    @Test func aRunEndedByItsParentsThrowLastsUntilThatEndEverywhere() throws {
        var script = TraceScript()
        script.add(.nodeCreated(id: 1, kind: .computation, name: "outer", parent: 0))
        script.add(.nodeCreated(id: 2, kind: .computation, name: "inner", parent: 1))
        script.add(.rerunBegan(computation: 1, firstRun: false), advance: 10)
        script.add(.rerunBegan(computation: 2, firstRun: false), advance: 1_000)
        script.add(.rerunEnded(computation: 1), advance: 30_000)
        let model = TraceModel(events: script.events)
        let inner = try #require(model.nodes.first { $0.id == 2 }?.runs)
        let outer = try #require(model.nodes.first { $0.id == 1 }?.runs)
        #expect(inner.runs == 1 && inner.totalNanoseconds == 30_000 && inner.maxNanoseconds == 30_000)
        #expect(inner.rerunNanoseconds == 30_000 && inner.maxRerunNanoseconds == 30_000)
        #expect(outer.totalNanoseconds == 31_000 && outer.selfNanoseconds == 1_000)
        #expect(model.unfinishedRuns == 0)

        let (spans, _) = try spans(try export(script.events))
        func duration(_ name: String) throws -> UInt64 {
            let span = try #require(spans.first { $0["name"] as? String == name })
            return try #require(UInt64(span["endTimeUnixNano"] as? String ?? "")) - (try #require(UInt64(span["startTimeUnixNano"] as? String ?? "")))
        }
        #expect(try duration("inner") == inner.totalNanoseconds)
        #expect(try duration("outer") == outer.totalNanoseconds)

        var bytes: [UInt8] = []
        try ChromeTraceExporter.export(script.events, to: ByteOutput(capacity: 1 << 16) { bytes += $0 }, traceName: "t")
        let root = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        let slices = try #require(root["traceEvents"] as? [[String: Any]])
        func chromeDuration(_ name: String) throws -> Double {
            let begin = try #require(slices.first { $0["name"] as? String == name && $0["ph"] as? String == "B" }?["ts"] as? Double)
            let end = try #require(slices.first { $0["name"] as? String == name && $0["ph"] as? String == "E" }?["ts"] as? Double)
            return ((end - begin) * 1_000).rounded()
        }
        #expect(try chromeDuration("inner") == Double(inner.totalNanoseconds))
        #expect(try chromeDuration("outer") == Double(outer.totalNanoseconds))
    }

    @Test func aWrittenValueIsAnAttributeOfItsChange() throws {
        var script = TraceScript()
        script.setUp()
        script.add(.actionBegan(store: TraceScript.store, name: "addTodo(_:)", arguments: "milk"), advance: 10)
        script.add(.value(node: TraceScript.todos, value: "[milk]"))
        script.add(.changed(dependency: TraceScript.todos))
        script.add(.changed(dependency: TraceScript.todos))     // no value just before: none attached
        script.add(.actionEnded(store: TraceScript.store), advance: 10)
        let (spans, _) = try spans(try export(script.events))
        let action = try #require(spans.first { (try? kind($0)) == "action" })
        let events = try #require(action["events"] as? [[String: Any]])
        #expect(try events.map { try attributes($0)["reactor.value"] as? String } == ["[milk]", nil])
    }

    @Test func anUncaughtErrorMarksItsRunAsAnError() throws {
        var script = TraceScript()
        script.add(.nodeCreated(id: 9, kind: .computation, name: "throws", parent: 0))
        script.add(.rerunBegan(computation: 9, firstRun: true), advance: 10)
        script.add(.issue(kind: .uncaughtError, node: 9, message: "boom"), advance: 10)
        script.add(.rerunEnded(computation: 9), advance: 10)
        let (spans, _) = try spans(try export(script.events))
        let run = try #require(spans.first { $0["name"] as? String == "throws" })
        let status = try #require(run["status"] as? [String: Any])
        #expect(status["code"] as? Int == 2)
        #expect(status["message"] as? String == "boom")
        let event = try #require((run["events"] as? [[String: Any]])?.first)
        #expect(try attributes(event)["reactor.issue"] as? String == "uncaughtError")
    }

    @Test func namesAreDataAndEventsPerSpanAreBounded() throws {
        var script = TraceScript()
        let hostile = "a\"b\\c\nd\u{1}e\u{202E}f</script>"
        script.add(.nodeCreated(id: 1, kind: .store, name: hostile, parent: 0))
        script.add(.nodeCreated(id: 2, kind: .reactiveValue, name: hostile + ".value", parent: 1))
        script.add(.actionBegan(store: 1, name: hostile, arguments: hostile), advance: 10)
        for _ in 0..<200 { script.add(.changed(dependency: 2)) }
        script.add(.actionEnded(store: 1), advance: 10)
        let (spans, _) = try spans(try export(script.events))
        let action = try #require(spans.first { (try? kind($0)) == "action" })
        #expect(action["name"] as? String == hostile + "." + hostile)
        #expect(try attributes(action)["reactor.action.arguments"] as? String == hostile)
        #expect((action["events"] as? [[String: Any]])?.count == OTLPTraceExporter.maxEventsPerSpan)
        #expect(action["droppedEventsCount"] as? Int == 200 - OTLPTraceExporter.maxEventsPerSpan)
    }
}
