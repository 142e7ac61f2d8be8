import ReactorTraceFormat

/// A write that caused unneeded reruns: the node whose change scheduled them,
/// the action call at the root of its causal chain and where that call was made.
public struct WasteWrite: Sendable, Equatable, Codable {
    /// The node that changed (`TodoStore.filter`), or how the rerun was
    /// scheduled without a change (`(explicit)`, `(unknown)`).
    public let node: String
    /// The changed node's kind (`property`, `computed`, `subject`…); nil without a node.
    public let kind: String?
    /// The store action whose call wrote it (`TodoStore.setFilter(_:)`); nil for a write outside an action.
    public let action: String?
    /// The action call's site (`#fileID:#line`) when the trace records one, else where the node was created; nil when neither was recorded.
    public let site: String?
    /// How many of the computation's unneeded reruns this write caused.
    public let reruns: Int

    /// Creates a write record.
    public init(node: String, kind: String?, action: String?, site: String?, reruns: Int) {
        self.node = node
        self.kind = kind
        self.action = action
        self.site = site
        self.reruns = reruns
    }

    /// A write as the importer knows it during the pass: positions, resolved into names at the end.
    struct Key: Hashable {
        /// The changed node's position, or -1.
        var node: Int32
        /// How the rerun was invalidated when no change scheduled it.
        var cause: InvalidationCause?
        /// The root action's position, or -1.
        var action: Int32
        var site: String?
    }
}
