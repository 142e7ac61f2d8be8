import Foundation
import ReactorCore
import ReactorInspector
import ReactorTrace
import Testing

/// The library's analyses on every sample's real trace, checked against the
/// samples' own counts.
@Suite struct LibraryOnSamplesTests {
    static let samples = ["counter", "todos", "profile", "stress"]

    @Test(arguments: samples)
    func modelAndWhyAgreeWithTheSample(sample: String) throws {
        let trace = try SampleTrace.named(sample)
        let names = Set(trace.reruns.keys)
        let (model, report) = try TraceFile.model(path: trace.path, options: TraceModelOptions(explaining: names))
        #expect(report.truncation == nil)
        #expect(report.events == model.eventCount)
        let hot = HotReport(model: model, top: nil)
        for (name, reruns) in trace.reruns {
            #expect(hot.entries.first { $0.name == name }?.reruns == reruns, "\(sample) hot \(name)")
            let why = try #require(model.why(name))
            #expect(why.reruns == reruns, "\(sample) why \(name)")
            #expect(why.patterns.reduce(0) { $0 + $1.count } == why.firstRuns + why.reruns + why.stops)
        }
        let summary = SummaryReport(model: model)
        #expect(summary.reruns >= trace.reruns.values.reduce(0, +))
    }

    /// The report's action timeline reads the one import: its reruns up to each
    /// action are the model's at that moment, and its last step's are hot's
    /// when no rerun follows it.
    @Test(arguments: samples)
    func actionTimelineCountsTheModelsReruns(sample: String) throws {
        let trace = try SampleTrace.named(sample)
        let timeline = ActionTimeline()
        let profile = TraceProfile(actionTimeline: timeline)
        _ = try TraceFile.forEachEvent(path: trace.path) { profile.record($0) }
        timeline.finish()
        for step in timeline.steps.prefix(3) + timeline.steps.suffix(2) {
            let (moment, _) = try TraceFile.model(path: trace.path, options: TraceModelOptions(until: step.ended))
            var byName: [String: Int] = [:]
            for node in moment.nodes where node.runs.reruns > 0 { byName[node.name, default: 0] += node.runs.reruns }
            let expected = byName.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.prefix(10)
            #expect(step.rerunsSoFar.map(\.name) == expected.map(\.key), "\(sample) action \(step.ordinal)")
            #expect(step.rerunsSoFar.map(\.reruns) == expected.map(\.value), "\(sample) action \(step.ordinal)")
        }
        if let last = timeline.steps.last, profile.model.lastTimestamp == last.ended {
            let hot = HotReport(model: profile.model, top: nil)
            for (name, reruns) in last.rerunsSoFar {
                #expect(hot.entries.filter { $0.name == name }.reduce(0) { $0 + $1.reruns } == reruns)
            }
        }
        if sample == "todos" {
            #expect(timeline.hasValues)
            #expect(timeline.steps.contains { step in step.changes.contains { $0.name == "TodoStore.filter" && $0.before != nil } })
        }
    }

    /// `top`'s live trace reads the one import: its actions' durations and values are the model's.
    @Test(arguments: samples)
    func liveTraceShowsWhatTheModelShows(sample: String) throws {
        let trace = try SampleTrace.named(sample)
        let live = LiveTrace(path: trace.path, actionLimit: 1_000_000)
        try live.catchUp()
        let model = live.model()
        #expect(live.recentActions.count == model.actions.reduce(0) { $0 + $1.count })
        #expect(live.recentActions.reduce(0) { $0 + $1.durationNanoseconds }
                == model.actions.reduce(0) { $0 + $1.totalNanoseconds })
        if sample == "todos" {
            // The filter's last write: its value as the model holds it.
            let filter = try #require(model.nodes(named: "TodoStore.filter").first)
            let last = try #require(live.recentActions.last { $0.changed.contains(filter.id) })
            let position = try #require(last.changed.firstIndex(of: filter.id))
            #expect(last.values[position] != nil)
        }
    }

    @Test(arguments: samples)
    func graphDrawsEveryCountedComputation(sample: String) throws {
        let trace = try SampleTrace.named(sample)
        let (model, _) = try TraceFile.model(path: trace.path)
        let (svg, graph) = try GraphRenderer.render(model: model, options: GraphOptions(selection: .all))
        for name in trace.reruns.keys {
            let node = try #require(graph.node(named: name), "\(sample): \(name)")
            #expect(node.runs.reruns == trace.reruns[name])
            #expect(svg.contains(">\(name)</text>") || svg.contains("xlink:title=\"\(name) ("))
        }
    }

    @Test func replayFormatsEveryEventOfTheTodosTrace() throws {
        let trace = try SampleTrace.named("todos")
        var formatter = ReplayFormatter()
        var lines: [String] = []
        let report = try TraceFile.forEachEvent(path: trace.path) { event in
            if let line = formatter.line(for: event) { lines.append(line) }
        }
        // One line an event, but a write's new value folds into its `changed` line.
        var known: Set<UInt64> = []
        var folded = 0
        _ = try TraceFile.forEachEvent(path: trace.path) { event in
            if case let .value(node, _) = event.record, !known.insert(node).inserted { folded += 1 }
        }
        #expect(folded > 0)
        #expect(lines.count == report.events - folded)
        #expect(lines.contains { $0.contains("action-begin") && $0.contains("TodoStore.addTodo(_:) \"Buy milk\"") })
        #expect(lines.contains { $0.contains("changed") && $0.hasSuffix("property TodoStore.filter: all → active") })
    }

    @Test func progressIsReportedWhileReading() throws {
        let trace = try SampleTrace.named("stress")
        var calls: [Int] = []
        let report = try TraceFile.forEachEvent(path: trace.path, progressEvery: 1_000, progress: { calls.append($0) }) { _ in }
        #expect(calls.count == report.events / 1_000)
        #expect(calls.first == 1_000)
    }

    @Test func unreadableFilesThrowTypedErrors() {
        #expect(throws: TraceFileError.self) { try TraceFile.model(path: "/no/such/trace") }
    }
}
