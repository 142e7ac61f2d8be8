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
    /// One stored byte, as ``NoBatchEventMarker`` has (an empty struct's `inout` address is shared).
    private var storage: UInt8 = 0
    @inline(__always)
    mutating func visit(_ event: ImportedEvent, from importer: TraceModelBuilder) {}
}
