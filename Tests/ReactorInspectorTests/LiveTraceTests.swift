import Foundation
import ReactorCore
import ReactorInspector
import ReactorTrace
import Testing

/// `LiveTrace` and `LiveSampler` over a file that grows chunk by chunk: the
/// model so far, the rates of the last interval, recent actions with what
/// they changed, waiting for a missing file, and the end.
@Suite struct LiveTraceTests {
    /// The todo script recorded by the real recorder in small chunks.
    static func recordedBytes(todos: Int) throws -> [UInt8] {
        let path = NSTemporaryDirectory() + "live-source-\(UUID().uuidString).rtrace"
        defer { unlink(path) }
        try TraceScript(events: TraceScript.todos(count: todos)).record(to: path, options: .init(segmentCapacity: 256))
        return try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// The byte offsets where the blocks after the header start.
    static func blockStarts(_ bytes: [UInt8]) -> [Int] {
        func uint32(_ offset: Int) -> Int { (0..<4).reduce(0) { $0 | Int(bytes[offset + $1]) << (8 * $1) } }
        var offset = uint32(12), starts: [Int] = []
        while offset + 28 <= bytes.count {
            starts.append(offset)
            offset += 28 + uint32(offset + 4)
        }
        return starts
    }

    @Test func followsAGrowingFileAndTellsTheRatesOfEachInterval() throws {
        let bytes = try Self.recordedBytes(todos: 12)
        let starts = Self.blockStarts(bytes)
        #expect(starts.count > 4, "small segments: many chunks")
        let path = NSTemporaryDirectory() + "live-\(UUID().uuidString).rtrace"
        defer { unlink(path) }

        let live = LiveTrace(path: path)
        #expect(try live.poll() == 0)
        guard case .waiting = live.status else { Issue.record("not waiting: \(live.status)"); return }

        // The header and half the chunks, the second half's first block cut in two.
        let middle = starts[starts.count / 2]
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes[0..<middle + 10])))
        try live.poll()
        #expect(live.status == .recording)
        var sampler = LiveSampler(top: 10, recent: 5)
        let first = sampler.snapshot(of: live, model: live.model())
        #expect(first.status == "recording")
        #expect(first.events == live.eventsRead)
        let firstList = try #require(first.hot.first { $0.name == "TodoList.list" })
        #expect(firstList.reruns > 0)
        #expect(firstList.intervalReruns == firstList.reruns, "a first snapshot's interval is the whole trace")

        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(bytes[(middle + 10)...]))
        try handle.close()
        try live.poll()
        #expect(live.status == .finished)
        let second = sampler.snapshot(of: live, model: live.model(), elapsedNanoseconds: 2_000_000_000)
        #expect(second.status == "finished")
        #expect(second.events == TraceScript.todos(count: 12).count)
        #expect(second.intervalNanoseconds == 2_000_000_000)
        let list = try #require(second.hot.first { $0.name == "TodoList.list" })
        #expect(list.reruns == 12)
        #expect(list.intervalReruns == 12 - firstList.reruns)
        #expect(list.rerunsPerSecond == Double(list.intervalReruns) / 2)
        // The recorder stamps its own times: the interval's time is what was added since the first snapshot.
        #expect(list.nanosecondsPerSecond == Double(list.totalNanoseconds - firstList.totalNanoseconds) / 2)
        #expect(list.intervalP99Nanoseconds > 0)

        #expect(second.actions.count == 5)
        let latest = try #require(second.actions.first)
        #expect(latest.name == "TodoStore.addTodo(_:)")
        #expect(latest.arguments == "\"item 11\"")
        #expect(latest.changed == ["TodoStore.todos", "visibleTodos.value"])
        #expect(latest.changeCount == 2)
    }

    /// A header cut short is waited for while it grows, and refused as
    /// truncated once it has stopped growing for the patience given.
    @Test func aHeaderThatStopsShortIsDamageOnceItStopsGrowing() throws {
        let bytes = try Self.recordedBytes(todos: 1)
        let path = NSTemporaryDirectory() + "live-\(UUID().uuidString).rtrace"
        defer { unlink(path) }
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes[0..<20])))
        let live = LiveTrace(path: path, headerPatience: .zero)
        #expect(try live.poll() == 0)
        guard case .waiting = live.status else { Issue.record("not waiting: \(live.status)"); return }
        // It grew: waited for again.
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(bytes[20..<30]))
        try handle.close()
        #expect(try live.poll() == 0)
        guard case .waiting = live.status else { Issue.record("not waiting: \(live.status)"); return }
        // It did not grow since: truncated.
        let error = #expect(throws: TraceFileError.self) { try live.poll() }
        #expect(error?.description.contains("truncated inside its header") == true, "\(String(describing: error))")

        // With patience, the same file is waited for.
        let patient = LiveTrace(path: path)
        #expect(try patient.poll() == 0)
        #expect(try patient.poll() == 0)
        guard case .waiting = patient.status else { Issue.record("not waiting: \(patient.status)"); return }
    }

    @Test func anActionsChangesCarryTheirValues() throws {
        var script = TraceScript()
        script.setUp()
        script.add(.actionBegan(store: TraceScript.store, name: "addTodo(_:)", arguments: "\"milk\""))
        // As the recorder writes them: the new value just before its change, and again before a second change.
        script.add(.value(node: TraceScript.todos, value: "[]"))
        script.add(.changed(dependency: TraceScript.todos))
        script.add(.value(node: TraceScript.todos, value: "[\"milk\"]"))
        script.add(.changed(dependency: TraceScript.todos))
        script.add(.changed(dependency: TraceScript.visibleValue))
        script.add(.actionEnded(store: TraceScript.store))
        let path = NSTemporaryDirectory() + "live-values-\(UUID().uuidString).rtrace"
        defer { unlink(path) }
        try script.record(to: path)
        let live = LiveTrace(path: path)
        try live.poll()
        var sampler = LiveSampler()
        let action = try #require(sampler.snapshot(of: live, model: live.model()).actions.first)
        #expect(action.changed == ["TodoStore.todos", "visibleTodos.value"])
        #expect(action.values == ["[\"milk\"]", nil])
        #expect(action.changeCount == 3)
        let text = sampler.snapshot(of: live, model: live.model()).text()
        #expect(text.contains("changed TodoStore.todos = [\"milk\"], visibleTodos.value"))
    }

    @Test func actionsCarryTheirActionNumberAndTheTotalsMatchAWholeFileRead() throws {
        var script = TraceScript()
        script.setUp()
        for round in 0..<3 {
            script.add(.actionBegan(store: TraceScript.store, name: "addTodo(_:)", arguments: "\"\(round)\""))
            // An action inside another is part of it: it shares the outer one's number.
            script.add(.actionBegan(store: TraceScript.store, name: "inner()", arguments: ""))
            script.add(.changed(dependency: TraceScript.todos))
            script.add(.actionEnded(store: TraceScript.store))
            script.add(.actionEnded(store: TraceScript.store))
        }
        let path = NSTemporaryDirectory() + "live-ordinals-\(UUID().uuidString).rtrace"
        defer { unlink(path) }
        try script.record(to: path)
        let live = LiveTrace(path: path)
        try live.catchUp()
        #expect(live.status == .finished)
        #expect(live.actionsBegun == 3)
        #expect(live.recentActions.map(\.ordinal) == [1, 1, 2, 2, 3, 3])
        #expect(live.recentActions.map(\.name) == ["inner()", "addTodo(_:)", "inner()", "addTodo(_:)", "inner()", "addTodo(_:)"])
        let (whole, report) = try TraceFile.model(path: path)
        #expect(live.end == report.end)
        #expect(live.end != nil)
        #expect(live.model().totalEvents == whole.totalEvents)
        #expect(SummaryReport(model: live.model(), end: live.end) == SummaryReport(model: whole, end: report.end))
        var sampler = LiveSampler()
        #expect(sampler.snapshot(of: live, model: live.model()).actions.map(\.ordinal) == [3, 3, 2, 2, 1, 1])
    }

    @Test func histogramSubtractionLeavesTheIntervalsSamples() {
        var histogram = DurationHistogram()
        for _ in 0..<100 { histogram.record(1_000) }
        let earlier = histogram
        for _ in 0..<10 { histogram.record(1_000_000) }
        let interval = histogram.subtracting(earlier)
        #expect(interval.count == 10)
        #expect(interval.sum == 10_000_000)
        #expect(interval.percentile(0.5) > 900_000)
        #expect(interval.maximum == 1_000_000)
        #expect(histogram.subtracting(histogram).count == 0)
    }
}
