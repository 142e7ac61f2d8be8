import Foundation
import ReactorCore
import ReactorInspector
import ReactorTrace

/// A scenario recorded in process, ready for assertions in a test:
///
/// ```swift
/// let trace = try ScenarioTrace.record { screen.addTodos(60) }
/// #expect(trace.reruns(of: "list", atMost: 10).passed)   // fails as: list reran 14 times, budget 10
/// let budget = try trace.check(budgetFile: "budget.json")
/// #expect(budget.passed)                                   // (a `try` inside #expect hides the line)
/// ```
///
/// Recording writes to a temporary file that is read back into the
/// inspector's ``TraceModel`` and removed: counts are the ones `reactor-inspect`
/// reports for the same trace, and budgets are checked by the same code as
/// `reactor-inspect check` (docs/BUDGETS.md).
///
/// Only what happens in the body's task (and its child tasks, across
/// suspensions for an `async` body) is recorded, so tests that run in parallel
/// do not count each other's work; recordings themselves run side by side,
/// each in its own trace (and with its own value options). Create what you
/// measure inside the body: a node created before it has no name in the trace.
public struct ScenarioTrace {
    /// Which events a recording keeps.
    public enum Scope: Sendable {
        /// The body's task and its child tasks: what the test itself does.
        case task
        /// Every thread of the process, e.g. for flushes scheduled on a
        /// `DispatchQueue`: every event, including those of other recordings'
        /// scenarios running meanwhile, so count computations whose names are
        /// unique to the test.
        case process
    }

    /// The model of the recorded trace, as every `reactor-inspect` view reads it.
    public let model: TraceModel
    /// The profile the budget check reads.
    let profile: TraceProfile

    /// Records `body` and reads the trace back; `options` are the recorder's
    /// (e.g. `TraceRecorder.Options(values: .described(maxLength: 200))` to record values).
    public static func record(scope: Scope = .task, options: TraceRecorder.Options = TraceRecorder.Options(),
                              _ body: () throws -> Void) throws -> ScenarioTrace {
        let recording = try Recording(scope: scope, options: options)
        do {
            try ScenarioTracer.$scenario.withValue(recording.id) { try body() }
        } catch {
            recording.abandon()
            throw error
        }
        return try recording.finish()
    }

    /// Records the async `body`, its task and child tasks across suspensions
    /// (`async let`, task groups; not a `Task.detached`), and reads the trace
    /// back; `options` are the recorder's, and the body runs on the caller's
    /// actor (`isolation`). A body with no `await` in it picks the synchronous overload.
    public static func record(scope: Scope = .task, options: TraceRecorder.Options = TraceRecorder.Options(),
                              isolation: isolated (any Actor)? = #isolation,
                              _ body: () async throws -> Void) async throws -> ScenarioTrace {
        let recording = try Recording(scope: scope, options: options)
        do {
            try await ScenarioTracer.$scenario.withValue(recording.id) { try await body() }
        } catch {
            recording.abandon()
            throw error
        }
        return try recording.finish()
    }

    /// Reads a recorded trace into the model and the budget profile.
    static func read(_ path: String) throws -> ScenarioTrace {
        // As `check` reads a trace: the profile feeds the one model every view reads.
        let profile = TraceProfile()
        let report: TraceReadReport
        do {
            report = try TraceFile.forEachEvent(path: path) { profile.record($0) }
        } catch {
            throw ScenarioError.unreadableTrace(error.description)
        }
        if let warning = report.warning { throw ScenarioError.unreadableTrace(warning) }
        profile.countUnreadEvents(of: report)
        return ScenarioTrace(model: profile.model, profile: profile)
    }

    /// Every run of the computations named `name` (autoruns or computeds), first runs included.
    public func runs(of name: String) -> Int {
        model.computations(named: name).reduce(0) { $0 + $1.runs.runs }
    }

    /// The runs after the first of the computations named `name`: what `hot` ranks.
    public func reruns(of name: String) -> Int {
        model.computations(named: name).reduce(0) { $0 + $1.runs.reruns }
    }

    /// Whether the computations named `name` reran at most `limit` times; a
    /// name the trace does not hold fails (a typo must not pass).
    public func reruns(of name: String, atMost limit: Int) -> BudgetVerdict {
        guard !model.computations(named: name).isEmpty else {
            let suggestions = model.suggestions(for: name)
            let hint = suggestions.isEmpty ? "create it inside record { }"
                : "did you mean " + suggestions.map { "\"\($0)\"" }.joined(separator: " or ") + "?"
            return BudgetVerdict(check: BudgetCheck(results: []),
                                 problem: "no computation named \"\(name)\" in the trace (\(hint))")
        }
        // An exact name: the glob's special characters escaped.
        var pattern = ""
        for character in name {
            if "*?[]\\".contains(character) { pattern.append("\\") }
            pattern.append(character)
        }
        // Escaping leaves no trailing backslash or NUL that Glob could reject, except a NUL in the name.
        guard let glob = try? Glob(pattern) else {
            return BudgetVerdict(check: BudgetCheck(results: []), problem: "\"\(name)\" cannot be matched")
        }
        return check(Budget(computations: [Budget.ComputationRule(match: glob, maxReruns: limit, path: "reruns(of:)")]))
    }

    /// Checks `budget`, as `reactor-inspect check` does.
    public func check(_ budget: Budget) -> BudgetVerdict {
        BudgetVerdict(check: BudgetCheck(budget: budget, profile: profile))
    }

    /// Checks the budget written as JSON in `text` (docs/BUDGETS.md).
    public func check(budgetJSON text: String) throws -> BudgetVerdict {
        do {
            return check(try Budget.parse(text))
        } catch {
            throw ScenarioError.invalidBudget("budget: \(error)")
        }
    }

    /// Checks the budget in the JSON file at `path` (docs/BUDGETS.md).
    public func check(budgetFile path: String) throws -> BudgetVerdict {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ScenarioError.unreadableBudget(path: path, reason: FileManager.default.fileExists(atPath: path)
                                                 ? "cannot read the budget" : "no such budget file")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ScenarioError.unreadableBudget(path: path, reason: "the budget is not UTF-8 text")
        }
        do {
            return check(try Budget.parse(text))
        } catch {
            throw ScenarioError.invalidBudget("\(path): \(error)")
        }
    }
}

/// A recording in progress: its temporary file, its recorder and its scenario id.
private struct Recording {
    let id: UInt64
    let path: String
    let recorder: TraceRecorder

    init(scope: ScenarioTrace.Scope, options: TraceRecorder.Options) throws {
        guard ScenarioTracer.scenario == 0 else { throw ScenarioError.nestedRecording }
        path = FileManager.default.temporaryDirectory
            .appendingPathComponent("reactor-scenario-\(getpid())-\(UUID().uuidString).trace").path
        do {
            recorder = try TraceRecorder(path: path, options: options)
        } catch {
            try? FileManager.default.removeItem(atPath: path)
            throw ScenarioError.recordingFailed("\(error)")
        }
        id = ScenarioRecordings.begin(recorder, scope: scope)
    }

    /// Ends the recording and reads the trace back; the file is removed either way.
    func finish() throws -> ScenarioTrace {
        defer { try? FileManager.default.removeItem(atPath: path) }
        let keptTheSlot = ScenarioRecordings.end(id)
        let statistics = recorder.stop()
        // Another tracer installed meanwhile took the events: the counts would be short.
        guard keptTheSlot else { throw ScenarioError.tracerReplaced }
        if statistics.writeError != 0 { throw ScenarioError.recordingFailed(String(cString: strerror(statistics.writeError))) }
        return try ScenarioTrace.read(path)
    }

    /// Ends the recording after its body threw, and removes the file.
    func abandon() {
        _ = ScenarioRecordings.end(id)
        _ = recorder.stop()
        try? FileManager.default.removeItem(atPath: path)
    }
}
