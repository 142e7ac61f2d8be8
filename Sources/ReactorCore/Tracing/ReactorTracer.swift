/// Receives every trace event the reactive core emits.
///
/// Install one with ``ReactorTracing/install(_:)``; `ReactorTrace.TraceRecorder`
/// is the implementation that writes the binary log. Methods are called on the
/// thread that caused the event, often with the graph lock held: they must be
/// fast, must not block and must not call back into the reactive graph.
///
/// Node ids are process-unique and never 0; 0 means "none". Timestamps are the
/// tracer's business: the core sends none, so a tracer that only counts pays
/// nothing for clocks.
public protocol ReactorTracer: AnyObject, Sendable {
    /// A node came into being. `parent` is the enclosing computation for a
    /// nested autorun, the store for a store's state, else 0.
    func nodeCreated(_ id: UInt64, kind: ReactorTracing.NodeKind, name: String, parent: UInt64)
    /// A node learned its name after creation (an `@Reactive` property learns
    /// `Owner.property` on first access). `owner` is the owning store or object node, or 0.
    func nodeNamed(_ id: UInt64, name: String, owner: UInt64)
    /// A computation was stopped, or a node was released.
    func nodeStopped(_ id: UInt64)
    /// A computation gained `dependency` during a run.
    func depend(computation: UInt64, dependency: UInt64)
    /// `dependency` changed (a property or subject write, or `changed()`).
    func changed(dependency: UInt64)
    /// A computation was invalidated; `source` is the dependency or parent id
    /// for those causes, else 0.
    func invalidated(computation: UInt64, cause: ReactorTracing.InvalidationCause, source: UInt64)
    /// A computation (autorun or computed) began to run.
    func rerunBegan(computation: UInt64, firstRun: Bool)
    /// The innermost running computation on this thread finished its run.
    func rerunEnded(computation: UInt64)
    /// The innermost running computation on this thread finished a run that
    /// gave it a new value: `rerunEnded(computation:)` followed by
    /// `changed(dependency: output)` in one call, where `output` is the
    /// computed's dependency node. The core sends it for a recomputed
    /// `Computed` whose value changed when no `value` event comes between the
    /// two (value capture off); the default makes the two calls.
    func rerunEnded(computation: UInt64, changed output: UInt64)
    /// `rerunEnded(computation:changed:)`, then the change's invalidation of
    /// `reader`, `invalidated(computation: reader, cause: .dependency, source:
    /// output)`, in one call. The core sends it in place of those calls for a
    /// recomputed `Computed` whose value changed when the first live reader
    /// of `output` is invalidated by the change and has no `onInvalidate`
    /// callback (which could record events between them); the default makes
    /// the two calls.
    func rerunEnded(computation: UInt64, changed output: UInt64, invalidated reader: UInt64)
    /// `rerunEnded(computation:changed:invalidated:)`, then
    /// `rerunBegan(computation: reader, firstRun: false)`, in one call: the
    /// two runs meet with no user code and no other event between them, so
    /// the rerun of `reader` begins at the time `computation`'s run ends (one
    /// clock reading serves both). The core sends it when the change marks
    /// the computed that was checking `computation` (its only reader, with no
    /// `onInvalidate` callback) dirty and that reader reruns at once; the
    /// default makes the two calls.
    func rerunEnded(computation: UInt64, changed output: UInt64, rerunning reader: UInt64)
    /// A store action began. `arguments` describes its arguments as values
    /// (bounded, ``Redacted`` ones as `‹redacted›`) when ``valueLengthLimit`` is
    /// above 0, and is empty otherwise.
    func actionBegan(store: UInt64, name: String, arguments: String)
    /// The innermost action of `store` ended.
    func actionEnded(store: UInt64)
    /// A flush of invalidated computations began.
    func flushBegan()
    /// The flush ended.
    func flushEnded()
    /// An issue was reported through `Reactor.issueHandler`; `node` is the
    /// computation or store concerned, or 0.
    func issue(_ kind: ReactorTracing.IssueKind, node: UInt64, message: String)
    /// The longest value description the tracer records, in UTF-8 bytes; 0 when
    /// it records no values (then no value is ever described, and action
    /// arguments are not either). Read once, when the tracer is installed.
    var valueLengthLimit: Int { get }
    /// `node` now holds the value `description` (a write, a send, a recomputed
    /// value, or the first value of a node): already cut to ``valueLengthLimit``
    /// and `‹redacted›` for secrets. Emitted just before the write's `changed`.
    func value(_ node: UInt64, description: String)
    /// Where `node` was created (`fileID:line`), sent once just after its
    /// `nodeCreated`; or, when `isActionCall`, where the action the store
    /// `node` just began was called, sent just after its `actionBegan`.
    func site(_ node: UInt64, site: String, isActionCall: Bool)
}

extension ReactorTracer {
    /// The two events one after the other: a tracer need not implement the pair.
    public func rerunEnded(computation: UInt64, changed output: UInt64) {
        rerunEnded(computation: computation)
        changed(dependency: output)
    }
    /// The end with its change, then the reader's invalidation: a tracer need
    /// not implement the combination.
    public func rerunEnded(computation: UInt64, changed output: UInt64, invalidated reader: UInt64) {
        rerunEnded(computation: computation, changed: output)
        invalidated(computation: reader, cause: .dependency, source: output)
    }
    /// The end with its change and the reader's invalidation, then the
    /// reader's rerun: a tracer need not implement the combination.
    public func rerunEnded(computation: UInt64, changed output: UInt64, rerunning reader: UInt64) {
        rerunEnded(computation: computation, changed: output, invalidated: reader)
        rerunBegan(computation: reader, firstRun: false)
    }
    /// No value capture: a tracer that does not implement it records none.
    public var valueLengthLimit: Int { 0 }
    /// Ignores values (``valueLengthLimit`` is 0, so the core sends none).
    public func value(_ node: UInt64, description: String) {}
    /// Ignores sites.
    public func site(_ node: UInt64, site: String, isActionCall: Bool) {}
}
