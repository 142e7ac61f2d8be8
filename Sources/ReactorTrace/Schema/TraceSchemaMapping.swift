import ReactorCore

// The one place where the runtime's tracing vocabulary meets the trace schema:
// each case the hook reports becomes the schema's code of the same meaning.
// `SchemaMappingTests` requires the mapping to be one-to-one and onto, so a
// case added on one side only fails a test.

extension TraceNodeKind {
    /// The schema's kind for a node the runtime reports.
    package init(_ kind: ReactorTracing.NodeKind) {
        switch kind {
        case .computation: self = .computation
        case .computed: self = .computed
        case .dependency: self = .dependency
        case .reactiveValue: self = .reactiveValue
        case .reactiveProperty: self = .reactiveProperty
        case .subject: self = .subject
        case .subscription: self = .subscription
        case .store: self = .store
        case .signal: self = .signal
        case .operator: self = .operator
        case .binding: self = .binding
        }
    }
}

extension InvalidationCause {
    /// The schema's cause for an invalidation the runtime reports.
    package init(_ cause: ReactorTracing.InvalidationCause) {
        switch cause {
        case .dependency: self = .dependency
        case .parent: self = .parent
        case .explicit: self = .explicit
        case .stop: self = .stop
        case .runaway: self = .runaway
        case .error: self = .error
        }
    }
}

extension TraceIssueKind {
    /// The schema's kind for an issue the runtime reports.
    package init(_ kind: ReactorTracing.IssueKind) {
        switch kind {
        case .nestedFlush: self = .nestedFlush
        case .flushInsideComputation: self = .flushInsideComputation
        case .uncaughtError: self = .uncaughtError
        case .runaway: self = .runaway
        case .cycle: self = .cycle
        case .writeOutsideAction: self = .writeOutsideAction
        case .misuse: self = .misuse
        case .lockWait: self = .lockWait
        }
    }
}

// The way back, for what replays decoded records into a tracer (tests,
// converters): derived from the mapping above, so the two cannot disagree.

extension ReactorTracing.NodeKind {
    /// The runtime's kind that the recorder writes as `kind`.
    package init(_ kind: TraceNodeKind) {
        self = Self.allCases.first { TraceNodeKind($0) == kind }!
    }
}

extension ReactorTracing.InvalidationCause {
    /// The runtime's cause that the recorder writes as `cause`.
    package init(_ cause: InvalidationCause) {
        self = Self.allCases.first { InvalidationCause($0) == cause }!
    }
}

extension ReactorTracing.IssueKind {
    /// The runtime's issue kind that the recorder writes as `kind`.
    package init(_ kind: TraceIssueKind) {
        self = Self.allCases.first { TraceIssueKind($0) == kind }!
    }
}
