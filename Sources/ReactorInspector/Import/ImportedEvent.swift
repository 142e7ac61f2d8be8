import ReactorTraceFormat

/// One event of a trace as the importer (``TraceModelBuilder``) resolved it,
/// handed to an ``ImportedEventVisitor`` right after the importer applied it
/// to the model: the views that show events one by one (replay, the exports,
/// the report's action timeline) read this instead of decoding events themselves.
///
/// Plain data: nodes and actions are positions in the importer's tables, read
/// through the importer the visitor is given (``TraceModelBuilder/name(ofNode:)``,
/// ``TraceModelBuilder/actionName(_:)``, ``TraceModelBuilder/string(_:)``…),
/// so handing an event on retains nothing.
public struct ImportedEvent: Sendable, BitwiseCopyable {
    /// When it happened, in trace nanoseconds (never earlier than its thread's previous event).
    public let time: UInt64
    /// The recording thread's index.
    public let thread: UInt32
    /// The event as decoded; its strings are read with ``TraceModelBuilder/string(_:)``.
    public let record: PlainTraceRecord
    /// The position in the importer's node table of the node the event is
    /// about (the created, named, stopped, changed, invalidated or running
    /// node, the computation that reads, the action's store, the or
    /// value's node), or -1 (flushes, issues about no node).
    public let node: Int32
    /// The position of the other node the event names: a created node's
    /// parent, a named node's owner, the dependency read, an invalidation's
    /// source (dependency or parent); -1 for none.
    public let relatedNode: Int32
    /// How many runs and actions enclose the event on its thread; for the
    /// beginning or end of a run or action, how many enclose that slice.
    public let depth: Int
    /// The slice (run, action or flush) the event begins or ends, as the
    /// importer paired it; nil for other events and for an end without its beginning.
    public let slice: ImportedSlice?
    /// For a run's end: how many runs and actions still open inside it ended
    /// with it, unfinished (a body that threw); 0 otherwise.
    public let endedInside: Int
    /// The position of the action (``TraceModelBuilder/actionName(_:)``) the
    /// event begins or ends, or -1.
    public let action: Int32
    /// The action at the root of the event's cause (the outermost action open
    /// on the thread, or the one whose write caused the running computation), or -1.
    public let rootAction: Int32
    /// What a value or change event says of the node's value.
    public let value: ImportedValue

    /// The kind of the event.
    public var kind: TraceEventKind { record.kind }
}

/// A run, action or flush: one nesting level of a thread's time, as the
/// importer pairs its beginning and end.
public struct ImportedSlice: Sendable, BitwiseCopyable, Equatable {
    /// What the slice is.
    public enum Kind: Sendable, BitwiseCopyable, Equatable {
        /// One run of a computation.
        case run
        /// One store action call.
        case action
        /// One flush of invalidated computations.
        case flush
    }

    /// What the slice is.
    public let kind: Kind
    /// When it began.
    public let begin: UInt64
    /// Its wall time: 0 on the beginning event, known on the end event.
    public let durationNanoseconds: UInt64
    /// Its wall time minus the runs nested in it (runs only; 0 on the beginning event).
    public let selfNanoseconds: UInt64
    /// A computation's first run (runs only).
    public let firstRun: Bool
    /// An action called with no other action open on its thread (actions only).
    public let outermost: Bool
    /// True on the event that ends the slice.
    public let ends: Bool
}

/// What an event says of its node's value, in a trace recorded with values
/// (with the importer tracking values: ``TraceModelOptions/tracksValues``).
public enum ImportedValue: Sendable, BitwiseCopyable, Equatable {
    /// Nothing (no value event, or values not tracked).
    case none
    /// A value event giving the node's first known value.
    case first
    /// A value event giving a write's new value (its `changed` follows).
    case written
    /// A value event older than the value the node already holds (threads'
    /// chunks interleave): not applied.
    case stale
    /// A `changed` that follows its write's value event: the change went from
    /// ``TraceModelBuilder/previousValue(ofNode:)`` to ``TraceModelBuilder/value(ofNode:)``.
    case changed
}
