/// One completed call of a store's action (Reflow's `RFAction`): which store,
/// which action and with which arguments.
public struct Action {
    /// The store the action ran on.
    public let store: Store
    /// The action's name, the method's `#function`: `addTodo(_:)`.
    public let name: String
    /// The arguments passed to `action(_:name:body:)`, in order.
    public let arguments: [Any]

    /// Creates an action record.
    public init(store: Store, name: String, arguments: [Any]) {
        self.store = store
        self.name = name
        self.arguments = arguments
    }

    /// A short summary of the arguments: `"buy milk", 3`, each described as a
    /// traced value (``Redacted`` ones as `‹redacted›`), the whole cut to 120 bytes.
    public var argumentSummary: String {
        TraceValueText.arguments(arguments, limit: 120)
    }
}
