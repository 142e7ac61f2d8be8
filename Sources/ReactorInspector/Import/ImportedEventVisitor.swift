/// A view that reads a trace event by event, as the importer resolves it:
/// pass it to ``TraceModelBuilder/consume(_:visiting:)``. The importer hands
/// every event it applies on, in order, right after applying it, so the
/// importer's tables already include what the event did.
public protocol ImportedEventVisitor {
    /// Takes the next event; `importer` resolves its nodes, actions and strings.
    mutating func visit(_ event: ImportedEvent, from importer: TraceModelBuilder)
}

/// Visits nothing: the importer's plain path (building the model only).
struct NoImportedEventVisitor: ImportedEventVisitor {
    @inline(__always)
    mutating func visit(_ event: ImportedEvent, from importer: TraceModelBuilder) {}
}
