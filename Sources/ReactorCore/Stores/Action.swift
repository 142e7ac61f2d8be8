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

    /// A short summary of the arguments for traces: `"buy milk", 3`. Strings
    /// are quoted, each argument is cut to 40 characters and the whole to 120.
    public var argumentSummary: String {
        Action.summarize(arguments)
    }

    static func summarize(_ arguments: [Any]) -> String {
        var summary = ""
        for argument in arguments {
            if !summary.isEmpty { summary += ", " }
            var text = argument is String || argument is Substring
                ? String(reflecting: argument) : String(describing: argument)
            if text.count > 40 { text = String(text.prefix(39)) + "…" }
            summary += text
            if summary.count > 120 { return String(summary.prefix(119)) + "…" }
        }
        return summary
    }
}
