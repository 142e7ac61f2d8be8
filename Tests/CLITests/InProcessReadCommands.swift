import Foundation
import ReactorInspector
import ReactorTrace

/// What each of `reactor-inspect`'s read commands does with a trace, called
/// in-process through ReactorInspector as the command files call it (the CLI
/// is thin: parsing flags and printing is all it adds). Returns how many bytes
/// of output the commands made, so the work is not optimised away; errors a
/// command turns into one line (a trace that cannot be read, no such name)
/// are expected on damaged input and are not failures.
enum InProcessReadCommands {
    /// Names the commands that take one are asked about: the samples' own, and a missing one.
    static let names = ["label", "TodoStore.filter", "TodoList.list", "counter", "missing"]
    static let budget = """
        {"computations":[{"match":"*","maxReruns":50,"maxTotalMilliseconds":20,"maxRerunMilliseconds":2}],
         "actions":[{"match":"*","maxRerunsPerAction":5}],"maxFlushMilliseconds":16,
         "forbid":["runaway","uncaughtError","writeOutsideAction","cycle"]}
        """

    /// Runs summary, hot, why, graph (DOT), history, state, replay, report
    /// (HTML with its graph, Markdown, JSON), export (Chrome, OTLP), check
    /// (text, JSON, JUnit, Markdown), diff (against itself) and top --once.
    static func runAll(path: String) -> Int {
        var output = 0
        func add(_ text: @autoclosure () throws -> String) { output += ((try? text())?.utf8.count ?? 0) }

        // summary, hot, why, graph, history: the model.
        if let (model, report) = try? TraceFile.model(path: path) {
            let summary = SummaryReport(model: model, top: 5, end: report.end)
            add(summary.text())
            add(try JSONText.encode(summary))
            for order in [HotOrder.reruns, .time] {
                let hot = HotReport(model: model, by: order, top: 10)
                add(hot.text())
                add(try JSONText.encode(hot.entries))
            }
            add(try GraphRenderer.render(model: model, options: GraphOptions(), format: .dot, title: "fuzz").output)
        }
        if let (model, _) = try? TraceFile.model(path: path, options: TraceModelOptions(explaining: Set(names), whyEntryLimit: 10)) {
            for name in names {
                guard var why = model.why(name), !why.isUnknown else { continue }
                why.attachIssues(model.issues)
                add(why.text())
                add(try JSONText.encode(why))
            }
        }
        for name in names.prefix(2) {
            if let (model, _) = try? TraceFile.model(path: path, options: TraceModelOptions(valueHistoryOf: name)),
               let history = try? ValueHistoryReport(model: model, name: name, path: path) {
                add(history.text())
                add(try JSONText.encode(history.entries))
            }
        }
        // state, at the end and after the first action.
        for moment in ["end", "action:1", "1ms"] {
            guard let parsed = try? TraceMoment.parse(moment).get(),
                  let (model, resolved, _) = try? TraceFile.model(path: path, at: parsed, requiringValues: true)
            else { continue }
            let state = StateReport(model: model, moment: resolved)
            add(state.text(tracePath: path))
            add(try JSONText.encode(state.entries))
        }
        // replay, plain and JSON.
        for json in [false, true] {
            var formatter = ReplayFormatter(json: json)
            _ = try? TraceFile.forEachBatch(path: path) { batch in
                formatter.withLines(of: batch) { output += $0.count }
            }
        }
        // report, check and diff: the profile.
        let timeline = ActionTimeline()
        let profile = TraceProfile(actionTimeline: timeline)
        if let report = try? TraceFile.forEachEvent(path: path, { profile.record($0) }) {
            timeline.finish()
            profile.countUnreadEvents(of: report)
            let graph = try? ProfileReport.dependencyGraphSVG(model: profile.model, computations: 40)
            let profileReport = ProfileReport(profile: profile, traceName: "fuzz.trace", graphSVG: graph, hotLimit: 20,
                                              actionTimeline: timeline)
            add(profileReport.html())
            add(profileReport.markdown(limit: 10))
            add(try profileReport.json())
            if let budget = try? Budget.parse(Self.budget) {
                let check = BudgetCheck(budget: budget, profile: profile)
                add(check.text(budgetName: "budget.json", traceName: "fuzz.trace", verbose: true))
                add(try check.json(budgetName: "budget.json", traceName: "fuzz.trace",
                                   computations: ComputationRecord.all(in: profile.model)))
                add(check.junitXML(budgetName: "budget.json", traceName: "fuzz.trace"))
                add(check.markdown(budgetName: "budget.json", traceName: "fuzz.trace"))
            }
            let diff = TraceDiff(base: profile, head: profile, regressionThresholdPercent: 10, minimumTimeNanoseconds: 1_000)
            add(diff.text(basePath: "a.trace", headPath: "b.trace"))
            add(try diff.json(basePath: "a.trace", headPath: "b.trace"))
            add(diff.markdown(basePath: "a.trace", headPath: "b.trace"))
        }
        // export, Chrome and OTLP, streamed through the importer as the command does.
        if let chrome = try? ChromeTraceExporter(output: ByteOutput { output += $0.count }, traceName: "fuzz.trace") {
            output += export(path: path, to: chrome, tracksValues: false, finish: chrome.finish)
        }
        if let (model, _) = try? TraceFile.model(path: path), let header = try? TraceFile.header(path: path),
           let otlp = try? OTLPTraceExporter(model: model, output: ByteOutput { output += $0.count },
                                             options: OTLPExportOptions(serviceName: "fuzz", header: header, traceFile: "fuzz.trace")) {
            output += export(path: path, to: otlp, tracksValues: true, finish: otlp.finish)
        }
        // top --once and top --json.
        let live = LiveTrace(path: path)
        if (try? live.catchUp()) != nil {
            var sampler = LiveSampler(top: 10)
            let snapshot = sampler.snapshot(of: live, model: live.model())
            add(snapshot.text(width: 120))
            add(try JSONText.encode(snapshot))
        }
        return output
    }

    private static func export(path: String, to exporter: some ImportedEventVisitor, tracksValues: Bool,
                               finish: () throws -> Void) -> Int {
        let importer = TraceModelBuilder(options: TraceModelOptions(tracksValues: tracksValues))
        var visitor = exporter
        _ = try? TraceFile.forEachBatch(path: path) { importer.consume($0, visiting: &visitor) }
        try? finish()
        return 0
    }
}
