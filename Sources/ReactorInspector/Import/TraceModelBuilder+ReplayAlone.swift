import ReactorTraceFormat

/// A builder reading light points for `replay`'s lines (``TraceIndexSession``): what a line
/// shows of a node beside its final name is whether the trace had created it by then, and as
/// what (its label), which the creation events of chunks not read decide.
extension TraceModelBuilder {
    /// Node `id` was created as `kind` by the events before the next chunk read (nil: not
    /// created yet). Returns whether that changes how lines show it.
    func setCreated(_ id: UInt64, as kind: TraceNodeKind?) -> Bool {
        let node = Int(position(of: id, inferring: kind ?? .dependency))
        let before = createdKind(ofNode: Int32(node))
        if let kind {
            nodes[node].kind = kind
            if nodes[node].createdAt == nil { nodes[node].createdAt = 0 }
        } else {
            nodes[node].createdAt = nil
        }
        return before != kind
    }
}
