import Testing
import Foundation
import ReactorCore
import ReactorTrace
@testable import ReactorInspector

@Suite struct ChromeTraceExporterTests {
    func export(_ events: [TraceEvent], capacity: Int = 1 << 16) throws -> Data {
        var bytes: [UInt8] = []
        let output = ByteOutput(capacity: capacity) { bytes += $0 }
        try ChromeTraceExporter.export(events, to: output, traceName: "todos \"test\"")
        return Data(bytes)
    }

    func objects(_ data: Data) throws -> [[String: Any]] {
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return try #require(root["traceEvents"] as? [[String: Any]])
    }

    @Test func exportIsValidWithSlicesInstantsAndFlows() throws {
        let data = try export(TraceScript.todos(count: 3))
        let summary = try ChromeTraceValidator.validate(data)
        #expect(summary.displayTimeUnit == "ns")
        #expect(summary.slicesByName["TodoStore.addTodo(_:)"] == 3)
        #expect(summary.slicesByName["flush"] == 3)
        #expect(summary.slicesByName["TodoList.list"] == 4)      // first run + 3 reruns
        #expect(summary.slicesByName["visibleTodos"] == 4)
        #expect(summary.threadNames == [1: "thread 0"])   // tid 0 is the idle thread to Linux-minded viewers
        // Each action: todos → visibleTodos, visibleTodos.value → list and → footer.
        #expect(summary.completeFlows == 9)
        #expect(summary.eventsByPhase["s"] == 9)
        #expect(summary.eventsByPhase["t"] == 9)
        #expect(summary.eventsByPhase["f"] == 9)
        #expect(summary.eventsByPhase["i"] == 6 + 9)            // changed + invalidate instants
    }

    @Test func flowsLinkChangeToTheRerunTheyCause() throws {
        let events = try objects(try export(TraceScript.todos(count: 1)))
        let starts = events.filter { $0["ph"] as? String == "s" }
        let first = try #require(starts.first)
        let id = try #require(first["id"] as? Int)
        let startIndex = try #require(events.firstIndex { $0["ph"] as? String == "s" })
        // The start sits right after the invalidate instant that follows the change.
        let changed = try #require(events[..<startIndex].last { ($0["name"] as? String)?.hasSuffix("changed") == true })
        #expect(changed["name"] as? String == "TodoStore.todos changed")
        #expect(changed["ts"] as? Double == first["ts"] as? Double)
        let finish = try #require(events.first { $0["ph"] as? String == "f" && $0["id"] as? Int == id })
        #expect(finish["bp"] as? String == "e")
        let finishIndex = try #require(events.firstIndex { $0["ph"] as? String == "f" && $0["id"] as? Int == id })
        let rerun = events[finishIndex - 1]
        #expect(rerun["ph"] as? String == "B")
        #expect(rerun["name"] as? String == "visibleTodos")
        #expect(rerun["ts"] as? Double == finish["ts"] as? Double)
        #expect((rerun["args"] as? [String: String])?["run"] == "rerun")
    }

    @Test func everyEventHasNameAndArgsAndMicrosecondTimestamps() throws {
        let events = try objects(try export(TraceScript.todos(count: 2)))
        for event in events {
            #expect((event["name"] as? String)?.isEmpty == false)
            #expect(event["args"] is [String: Any])
        }
        // The first written event is visibleTodos' first run at 1010 ns = 1.01 µs.
        let firstTimed = try #require(events.first { $0["ph"] as? String != "M" })
        #expect(firstTimed["name"] as? String == "visibleTodos")
        #expect(firstTimed["ts"] as? Double == 1.01)
        let action = try #require(events.first { $0["ph"] as? String == "B" && ($0["args"] as? [String: String])?["kind"] == "action" })
        #expect((action["args"] as? [String: String])?["arguments"] == "\"item 0\"")
    }

    @Test func truncatedTraceStillBalancesAndFinishesFlows() throws {
        var events = TraceScript.todos(count: 2)
        events.removeLast(9)   // inside the second flush, after visibleTodos invalidated list and footer
        let summary = try ChromeTraceValidator.validate(try export(events))
        #expect(summary.eventsByPhase["B"] == summary.eventsByPhase["E"])
        #expect(summary.eventsByPhase["s"] == summary.eventsByPhase["f"])
    }

    @Test func threadsGetTheirOwnTracks() throws {
        var script = TraceScript()
        script.setUp()
        script.addTodo("main")
        script.addTodo("worker", thread: 3)
        let data = try export(script.events)
        let summary = try ChromeTraceValidator.validate(data)
        #expect(summary.threadNames == [1: "thread 0", 4: "thread 3"])
        let events = try objects(data)
        let workerAction = try #require(events.first { $0["ph"] as? String == "B" && $0["name"] as? String == "TodoStore.addTodo(_:)"
            && ($0["args"] as? [String: String])?["arguments"] == "\"worker\"" })
        #expect(workerAction["tid"] as? Int == 4)
    }

    @Test func stoppedComputationEndsItsFlow() throws {
        var script = TraceScript()
        script.add(.nodeCreated(id: 1, kind: .computation, name: "a", parent: 0))
        script.add(.nodeCreated(id: 2, kind: .dependency, name: "d", parent: 0))
        script.add(.rerunBegan(computation: 1, firstRun: true))
        script.add(.rerunEnded(computation: 1), advance: 5)
        script.add(.changed(dependency: 2), advance: 5)
        script.add(.invalidated(computation: 1, cause: .dependency, source: 2))
        script.add(.nodeStopped(id: 1), advance: 5)
        let summary = try ChromeTraceValidator.validate(try export(script.events))
        #expect(summary.completeFlows == 1)
    }

    /// Slices end where the importer pairs them: an end without its beginning
    /// writes nothing, and a run that ends with an action still open inside it
    /// ends that action too, so the document stays balanced.
    @Test func slicesEndWhereTheImporterPairsThem() throws {
        var script = TraceScript()
        script.add(.nodeCreated(id: 1, kind: .computation, name: "a", parent: 0))
        script.add(.nodeCreated(id: 2, kind: .store, name: "S", parent: 0))
        script.add(.rerunEnded(computation: 1), advance: 5)
        script.add(.rerunBegan(computation: 1, firstRun: true), advance: 5)
        script.add(.actionBegan(store: 2, name: "go()", arguments: ""), advance: 5)
        script.add(.rerunEnded(computation: 1), advance: 5)
        script.add(.actionEnded(store: 2), advance: 5)
        let data = try export(script.events)
        let summary = try ChromeTraceValidator.validate(data)
        #expect(summary.eventsByPhase["B"] == 2 && summary.eventsByPhase["E"] == 2)
        #expect(summary.slicesByName == ["a": 1, "S.go()": 1])
        let ends = try objects(data).filter { $0["ph"] as? String == "E" }
        #expect(ends.map { $0["ts"] as? Double } == [1.02, 1.02])   // the clock starts at 1 µs
    }

    @Test func streamsInSmallChunks() throws {
        var chunks = 0
        var bytes: [UInt8] = []
        let output = ByteOutput(capacity: 256) { chunks += 1; bytes += $0 }
        let exporter = try ChromeTraceExporter(output: output)
        let events = TraceScript.todos(count: 20)
        for event in events.prefix(events.count / 2) { try exporter.record(event) }
        // Half the trace is already written before the rest is read.
        #expect(chunks > 10)
        for event in events.dropFirst(events.count / 2) { try exporter.record(event) }
        try exporter.finish()
        _ = try ChromeTraceValidator.validate(Data(bytes))
    }

    @Test func validatorRejectsBrokenDocuments() {
        func validate(_ text: String) -> String? {
            do { _ = try ChromeTraceValidator.validate(Data(text.utf8)); return nil } catch { return error.message }
        }
        let event = #""name":"x","cat":"c","pid":1,"tid":1,"args":{}"#
        #expect(validate("{") != nil)
        #expect(validate(#"{"traceEvents":[{\#(event),"ph":"B","ts":1}]}"#)?.contains("unclosed") == true)
        #expect(validate(#"{"traceEvents":[{\#(event),"ph":"E","ts":1}]}"#)?.contains("without an open B") == true)
        #expect(validate(#"{"traceEvents":[{\#(event),"ph":"i","ts":2,"s":"t"},{\#(event),"ph":"i","ts":1,"s":"t"}]}"#)?
            .contains("back in time") == true)
        #expect(validate(#"{"traceEvents":[{\#(event),"ph":"s","ts":1,"id":3}]}"#)?.contains("never finishes") == true)
        #expect(validate(#"{"traceEvents":[{\#(event),"ph":"f","ts":1,"id":3}]}"#)?.contains("without a start") == true)
        #expect(validate(#"{"traceEvents":[{\#(event),"ph":"i","ts":1}]}"#)?.contains("scope") == true)
        #expect(validate(#"{"traceEvents":[{"name":"x","pid":1,"tid":1,"ph":"i","ts":1,"s":"t"}]}"#)?.contains("args") == true)
    }
}
