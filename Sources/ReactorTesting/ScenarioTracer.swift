import ReactorCore
import ReactorTrace

/// The tracer installed while a scenario records: events of the scenario's
/// scope go to its recorder, every other event to the tracer that was
/// installed before (a process-wide recording keeps what is not the scenario's).
///
/// The scope is a task-local id, bound around the scenario's body: it follows
/// the body's task and its child tasks, so tests running in parallel on the
/// same threads do not leak into each other's traces.
final class ScenarioTracer: ReactorTracer {
    /// The id of the scenario whose body is running in this task, or 0.
    @TaskLocal static var scenario: UInt64 = 0

    let id: UInt64
    let recordsEverything: Bool
    let recorder: TraceRecorder
    let previous: (any ReactorTracer)?

    init(id: UInt64, recordsEverything: Bool, recorder: TraceRecorder, previous: (any ReactorTracer)?) {
        self.id = id
        self.recordsEverything = recordsEverything
        self.recorder = recorder
        self.previous = previous
    }

    /// Where this event goes: the recorder when it belongs to the scenario.
    @inline(__always)
    private var target: (any ReactorTracer)? {
        recordsEverything || Self.scenario == id ? recorder : previous
    }

    func nodeCreated(_ id: UInt64, kind: ReactorTracing.NodeKind, name: String, parent: UInt64) {
        target?.nodeCreated(id, kind: kind, name: name, parent: parent)
    }

    func nodeNamed(_ id: UInt64, name: String, owner: UInt64) {
        target?.nodeNamed(id, name: name, owner: owner)
    }

    func nodeStopped(_ id: UInt64) {
        target?.nodeStopped(id)
    }

    func depend(computation: UInt64, dependency: UInt64) {
        target?.depend(computation: computation, dependency: dependency)
    }

    func changed(dependency: UInt64) {
        target?.changed(dependency: dependency)
    }

    func invalidated(computation: UInt64, cause: ReactorTracing.InvalidationCause, source: UInt64) {
        target?.invalidated(computation: computation, cause: cause, source: source)
    }

    func rerunBegan(computation: UInt64, firstRun: Bool) {
        target?.rerunBegan(computation: computation, firstRun: firstRun)
    }

    func rerunEnded(computation: UInt64) {
        target?.rerunEnded(computation: computation)
    }

    func actionBegan(store: UInt64, name: String, arguments: String) {
        target?.actionBegan(store: store, name: name, arguments: arguments)
    }

    func actionEnded(store: UInt64) {
        target?.actionEnded(store: store)
    }

    func flushBegan() {
        target?.flushBegan()
    }

    func flushEnded() {
        target?.flushEnded()
    }

    func issue(_ kind: ReactorTracing.IssueKind, node: UInt64, message: String) {
        target?.issue(kind, node: node, message: message)
    }

    /// The recorder's: values are described only when the recording asks for them.
    var valueLengthLimit: Int { recorder.valueLengthLimit }

    func value(_ node: UInt64, description: String) {
        target?.value(node, description: description)
    }

    func site(_ node: UInt64, site: String, isActionCall: Bool) {
        target?.site(node, site: site, isActionCall: isActionCall)
    }
}
