import ReactorCore
import ReactorTrace

/// The tracer installed while scenarios record: it routes each event to the
/// recorder of the scenario whose task emitted it, to every process-wide
/// recording, and an event no recording takes to the tracer that was
/// installed before.
///
/// The scenario is a task-local id, bound around the scenario's body: it
/// follows the body's task and its child tasks across suspensions, so
/// recordings running at the same time on the same threads keep apart.
///
/// A router is immutable: ``ScenarioRecordings`` installs a new one each time
/// a recording begins or ends, so routing an event takes no lock, and the
/// core reads ``valueLengthLimit`` (once, at installation) for the recordings
/// of that moment.
final class ScenarioTracer: ReactorTracer {
    /// The id of the scenario whose body is running in this task, or 0.
    @TaskLocal static var scenario: UInt64 = 0

    /// A tracer events go to, with the longest value it records (0: none).
    struct Target: Sendable {
        let tracer: any ReactorTracer
        let valueLengthLimit: Int

        init(_ tracer: any ReactorTracer) {
            self.tracer = tracer
            valueLengthLimit = max(0, tracer.valueLengthLimit)
        }
    }

    /// The recorders of task-scoped recordings, by scenario id.
    let scenarios: [UInt64: Target]
    /// The recorders of process-wide recordings: they take every event.
    let everywhere: [Target]
    /// The tracer installed before the first recording began.
    let previous: Target?
    /// The longest limit of all targets: the core describes values that long,
    /// and each target gets them cut to its own limit.
    let valueLengthLimit: Int

    init(scenarios: [UInt64: Target], everywhere: [Target], previous: Target?) {
        self.scenarios = scenarios
        self.everywhere = everywhere
        self.previous = previous
        valueLengthLimit = max(previous?.valueLengthLimit ?? 0,
                               scenarios.values.map(\.valueLengthLimit).max() ?? 0,
                               everywhere.map(\.valueLengthLimit).max() ?? 0)
    }

    /// Hands the event to every target it belongs to.
    @inline(__always)
    private func route(_ emit: (Target) -> Void) {
        var taken = false
        let scenario = Self.scenario
        if scenario != 0, let target = scenarios[scenario] {
            emit(target)
            taken = true
        }
        for target in everywhere {
            emit(target)
            taken = true
        }
        if !taken, let previous { emit(previous) }
    }

    /// `text` as the core would have described it for `target`: cut to its
    /// limit (the core cut it to ``valueLengthLimit``, the longest).
    @inline(__always)
    private func described(_ text: String, for target: Target) -> String {
        target.valueLengthLimit >= valueLengthLimit ? text : TraceValueText.bounded(text, limit: target.valueLengthLimit)
    }

    func nodeCreated(_ id: UInt64, kind: ReactorTracing.NodeKind, name: String, parent: UInt64) {
        route { $0.tracer.nodeCreated(id, kind: kind, name: name, parent: parent) }
    }

    func nodeNamed(_ id: UInt64, name: String, owner: UInt64) {
        route { $0.tracer.nodeNamed(id, name: name, owner: owner) }
    }

    func nodeStopped(_ id: UInt64) {
        route { $0.tracer.nodeStopped(id) }
    }

    func depend(computation: UInt64, dependency: UInt64) {
        route { $0.tracer.depend(computation: computation, dependency: dependency) }
    }

    func changed(dependency: UInt64) {
        route { $0.tracer.changed(dependency: dependency) }
    }

    func invalidated(computation: UInt64, cause: ReactorTracing.InvalidationCause, source: UInt64) {
        route { $0.tracer.invalidated(computation: computation, cause: cause, source: source) }
    }

    func rerunBegan(computation: UInt64, firstRun: Bool) {
        route { $0.tracer.rerunBegan(computation: computation, firstRun: firstRun) }
    }

    func rerunEnded(computation: UInt64) {
        route { $0.tracer.rerunEnded(computation: computation) }
    }

    // Only sent when no target records values (the limit is the largest of theirs).
    func rerunEnded(computation: UInt64, changed output: UInt64) {
        route { $0.tracer.rerunEnded(computation: computation, changed: output) }
    }

    // Only sent when no target records values (as above).
    func rerunEnded(computation: UInt64, changed output: UInt64, invalidated reader: UInt64) {
        route { $0.tracer.rerunEnded(computation: computation, changed: output, invalidated: reader) }
    }

    // Only sent when no target records values (as above).
    func rerunEnded(computation: UInt64, changed output: UInt64, rerunning reader: UInt64) {
        route { $0.tracer.rerunEnded(computation: computation, changed: output, rerunning: reader) }
    }

    func actionBegan(store: UInt64, name: String, arguments: String) {
        route { target in
            // A tracer that records no values gets no arguments, as from the core.
            let arguments = target.valueLengthLimit == 0 ? "" : described(arguments, for: target)
            target.tracer.actionBegan(store: store, name: name, arguments: arguments)
        }
    }

    func actionEnded(store: UInt64) {
        route { $0.tracer.actionEnded(store: store) }
    }

    func flushBegan() {
        route { $0.tracer.flushBegan() }
    }

    func flushEnded() {
        route { $0.tracer.flushEnded() }
    }

    func issue(_ kind: ReactorTracing.IssueKind, node: UInt64, message: String) {
        route { $0.tracer.issue(kind, node: node, message: message) }
    }

    func value(_ node: UInt64, description: String) {
        route { target in
            guard target.valueLengthLimit > 0 else { return }
            // The core never cuts the redacted marker, whatever the limit.
            let text = description == TraceValueText.redacted ? description : described(description, for: target)
            target.tracer.value(node, description: text)
        }
    }

    func site(_ node: UInt64, site: String, isActionCall: Bool) {
        route { $0.tracer.site(node, site: site, isActionCall: isActionCall) }
    }
}
