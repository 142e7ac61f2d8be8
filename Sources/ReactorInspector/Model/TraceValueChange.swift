/// One value a node took, as the trace recorded it (a `value` event): the
/// node's value from that moment on, and the store action at the root of
/// the write, if any.
public struct TraceValueChange: Sendable, Equatable {
    /// The node's id.
    public let node: UInt64
    /// When the value was recorded, in trace nanoseconds.
    public let timestamp: UInt64
    /// The value's description, as recorded (cut and redacted by the recorder).
    public let value: String
    /// The value it replaced: the node's previous recorded value, nil for the
    /// first one the trace holds.
    public let previous: String?
    /// The action at the root of the write (`TodoStore.setFilter(_:)`), nil
    /// when no action led to it (a write outside any action, a node's first value).
    public let action: String?

    /// Creates a record.
    public init(node: UInt64, timestamp: UInt64, value: String, previous: String?, action: String?) {
        self.node = node
        self.timestamp = timestamp
        self.value = value
        self.previous = previous
        self.action = action
    }
}
