// The runtime's short names for the hook's vocabulary. Internal: clients see
// `ReactorTracing.NodeKind` and friends, so these never meet the trace schema's
// types of the same names in a file that imports both.

/// The kind of a node the runtime announces to the tracer.
@usableFromInline typealias TraceNodeKind = ReactorTracing.NodeKind
/// Why the runtime invalidated a computation.
@usableFromInline typealias InvalidationCause = ReactorTracing.InvalidationCause
/// The kind of an issue the runtime reports to the tracer.
@usableFromInline typealias TraceIssueKind = ReactorTracing.IssueKind
