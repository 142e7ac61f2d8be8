import Foundation
import Testing
import ReactorCore
import ReactorInspector
import ReactorTesting
import ReactorTrace
import TracerSlot
import ReactorTraceFormat

/// A list screen: `list` (or `listName`) reruns on every write of `items`, `count` only when the count changes.
final class ListScreen {
    let reactor = Reactor()
    let items = ReactiveProperty(initialValue: [String]())
    private(set) var computations: [Computation] = []

    init(listName: String = "list") {
        let count = reactor.computed("itemCount") { self.items.value.count }
        computations.append(reactor.autorun(listName) { [items] _ in _ = items.value.joined() })
        computations.append(reactor.autorun("count") { _ in _ = count.value })
    }

    func write(_ values: [String]) { items.value = values }

    deinit { computations.forEach { $0.stop() } }
}

@Suite(.recordsScenarios) struct ScenarioTraceTests {
    /// 14 writes, 8 of which change the count: list reruns 14 times, count 8.
    func fourteenWrites() throws -> ScenarioTrace {
        try ScenarioTrace.record {
            let screen = ListScreen()
            for index in 0..<14 { screen.write(Array(repeating: "x", count: index / 2 + 1 + index % 2)) }
        }
    }

    @Test func countsAreTheModelsRunsAndReruns() throws {
        let trace = try fourteenWrites()
        #expect(trace.runs(of: "list") == 15)
        #expect(trace.reruns(of: "list") == 14)
        #expect(trace.runs(of: "list") == trace.model.computations(named: "list").reduce(0) { $0 + $1.runs.runs })
        #expect(trace.reruns(of: "itemCount") == 14)
        #expect(trace.reruns(of: "count") == 8)
        #expect(trace.reruns(of: "missing") == 0)
        // The same figure the budget check measures.
        let verdict = trace.reruns(of: "list", atMost: 100)
        #expect(verdict.check.results.first?.measured == "14")
    }

    @Test func aRerunCountOverItsLimitFailsAsOneLine() throws {
        let trace = try fourteenWrites()
        let verdict = trace.reruns(of: "list", atMost: 10)
        #expect(!verdict.passed)
        #expect(verdict.testDescription == "list reran 14 times, budget 10")
        #expect(verdict.description == verdict.testDescription)
        #expect(trace.reruns(of: "list", atMost: 14).passed)
        #expect(trace.reruns(of: "list", atMost: 14).description == "within budget (1 rule)")
    }

    @Test func aFailingExpectationPrintsTheLine() throws {
        let trace = try fourteenWrites()
        let verdict = trace.reruns(of: "list", atMost: 10)
        withKnownIssue {
            #expect(verdict.passed)
        } matching: { issue in
            let text = String(describing: issue)
            return text.contains("list reran 14 times, budget 10") && !text.contains("\n")
        }
    }

    @Test func anUnknownNameFailsWithASuggestion() throws {
        let trace = try fourteenWrites()
        let verdict = trace.reruns(of: "lsit", atMost: 100)
        #expect(!verdict.passed)
        #expect(verdict.description == "no computation named \"lsit\" in the trace (did you mean \"list\"?)")
    }

    @Test func budgetsFromJSONTextAndFile() throws {
        let trace = try fourteenWrites()
        let budget = """
            { "computations": [ { "match": "list", "maxReruns": 10 }, { "match": "count", "maxReruns": 10 } ],
              "forbid": ["runaway", "uncaughtError"] }
            """
        let verdict = try trace.check(budgetJSON: budget)
        #expect(!verdict.passed)
        #expect(verdict.check.results.count == 4)
        #expect(verdict.failures == ["list reran 14 times, budget 10"])
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("budget-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try budget.replacingOccurrences(of: "\"maxReruns\": 10 }, {", with: "\"maxReruns\": 20 }, {")
            .write(to: file, atomically: true, encoding: .utf8)
        let fromFile = try trace.check(budgetFile: file.path)
        #expect(fromFile.passed, "\(fromFile)")
        #expect(fromFile.description == "within budget (4 rules)")
    }

    @Test func aLiteralBudgetAndSeveralFailuresStayOnOneLine() throws {
        let trace = try fourteenWrites()
        let budget = Budget(computations: [Budget.ComputationRule(match: try Glob("*"), maxReruns: 5)])
        let verdict = trace.check(budget)
        #expect(verdict.description == "itemCount reran 14 times, budget 5 (and 2 more over budget)")
        let two = Budget(computations: [Budget.ComputationRule(match: try Glob("list"), maxReruns: 5),
                                        Budget.ComputationRule(match: try Glob("count"), maxReruns: 5, path: "computations[1]")])
        #expect(trace.check(two).description == "list reran 14 times, budget 5; count reran 8 times, budget 5")
    }

    @Test func badBudgetsThrowOneLineNamingWhere() throws {
        let trace = try fourteenWrites()
        #expect(throws: ScenarioError.self) { try trace.check(budgetJSON: "{ \"computations\": [ { \"match\": \"list\", \"maxRerun\": 1 } ] }") }
        do {
            _ = try trace.check(budgetJSON: "{ \"computations\": [ { \"match\": \"list\", \"maxRerun\": 1 } ] }")
        } catch {
            #expect("\(error)" == "budget: unknown key \"computations[0].maxRerun\" at line 1, column 40 (did you mean \"maxReruns\"?)")
        }
        do {
            _ = try trace.check(budgetFile: "/nonexistent/budget.json")
            Issue.record("a missing budget file was accepted")
        } catch {
            #expect("\(error)" == "/nonexistent/budget.json: no such budget file")
        }
    }

    @Test func anErrorInTheBodyIsRethrownAndTheNextRecordingWorks() throws {
        struct Stop: Error {}
        #expect(throws: Stop.self) { try ScenarioTrace.record { throw Stop() } }
        #expect(try fourteenWrites().reruns(of: "list") == 14)
    }

    @Test func valuesAreRecordedWhenTheOptionsAskForThem() throws {
        let plain = try fourteenWrites()
        #expect(plain.model.eventsByKind[.value] == nil)
        let withValues = try ScenarioTrace.record(options: TraceRecorder.Options(values: .described(maxLength: 50))) {
            let screen = ListScreen()
            screen.write(["a", "b"])
        }
        #expect((withValues.model.eventsByKind[.value] ?? 0) > 0)
        #expect(withValues.reruns(of: "list") == 1)
    }

    @Test func recordingsDoNotNest() throws {
        var inner: (any Error)?
        _ = try ScenarioTrace.record {
            do { _ = try ScenarioTrace.record {} } catch { inner = error }
        }
        #expect(inner as? ScenarioError == .nestedRecording)
    }
}

/// Recordings keep to their own task: work on other threads is left out
/// unless the scope is the process.
@Suite(.recordsScenarios) struct ScenarioScopeThreadTests {
    /// Writes `count` times to a screen of its own on another thread, while `body` records.
    /// Both screens' lists are named `listName`.
    func withBackgroundWrites(_ count: Int, scope: ScenarioTrace.Scope, listName: String) throws -> ScenarioTrace {
        try ScenarioTrace.record(scope: scope) {
            let started = DispatchSemaphore(value: 0), done = DispatchSemaphore(value: 0)
            let thread = Thread {
                let other = ListScreen(listName: listName)
                started.signal()
                for index in 0..<count { other.write(["background \(index)"]) }
                done.signal()
            }
            thread.start()
            started.wait()
            let screen = ListScreen(listName: listName)
            screen.write(["mine"])
            done.wait()
        }
    }

    @Test func otherThreadsAreLeftOutOfATaskRecording() throws {
        let trace = try withBackgroundWrites(20, scope: .task, listName: "taskScopeList")
        #expect(trace.reruns(of: "taskScopeList") == 1)
        #expect(trace.runs(of: "taskScopeList") == 2)
    }

    @Test func aProcessRecordingKeepsEveryThread() throws {
        // A name of its own: the process recording also takes the events of
        // recordings running meanwhile in other tests.
        let trace = try withBackgroundWrites(20, scope: .process, listName: "processScopeList")
        #expect(trace.reruns(of: "processScopeList") == 21)
        // At least this thread and the writer: a process recording also takes in
        // whatever other suites running in parallel do on their own threads.
        #expect(trace.model.threadCount >= 2)
    }

    @Test func parallelRecordingsEachCountTheirOwn() async throws {
        let counts = try await withThrowingTaskGroup(of: Int.self) { group in
            for writes in [3, 5, 7, 9] {
                group.addTask {
                    try ScenarioTrace.record {
                        let screen = ListScreen()
                        for index in 0..<writes { screen.write(["\(index)"]) }
                    }.reruns(of: "list")
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(counts.sorted() == [3, 5, 7, 9])
    }
}

/// A tracer installed over a recording: it has the tracer slot alone, as it
/// would fail every recording running beside it.
@Suite(.installsTracer) struct ScenarioTracerReplacementTests {
    @Test func aTracerInstalledDuringTheRecordingIsAnError() throws {
        let before = ReactorTracing.tracer
        var router: (any ReactorTracer)?
        var replacement: ForwardingTracer?
        #expect(throws: ScenarioError.tracerReplaced) {
            try ScenarioTrace.record {
                router = ReactorTracing.tracer
                replacement = ForwardingTracer(to: router!)
                ReactorTracing.install(replacement)
            }
        }
        // The router put back after its recording ended routes to nothing: the
        // next recording takes the tracer under it as the one to put back.
        if ReactorTracing.tracer === replacement { ReactorTracing.install(router) }
        #expect(try ScenarioTrace.record { ListScreen().write(["x"]) }.reruns(of: "list") == 1)
        #expect(ReactorTracing.tracer === before)
    }
}
