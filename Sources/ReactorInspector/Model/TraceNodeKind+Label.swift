import ReactorTraceFormat

extension TraceNodeKind {
    /// The word reports use for the kind (`autorun`, `computed`, `property`…).
    public var label: String {
        switch self {
        case .computation: "autorun"
        case .computed: "computed"
        case .dependency: "dependency"
        case .reactiveValue: "property"
        case .reactiveProperty: "reactive-property"
        case .subject: "subject"
        case .subscription: "subscription"
        case .store: "store"
        case .signal: "signal"
        case .operator: "operator"
        case .binding: "binding"
        }
    }

    /// True for the kinds that run: autoruns, computeds and signal stages.
    public var runs: Bool {
        switch self {
        case .computation, .computed, .operator, .binding: true
        default: false
        }
    }

    /// The kind whose ``label`` is `label`, if any.
    public init?(label: String) {
        guard let kind = Self.allCases.first(where: { $0.label == label }) else { return nil }
        self = kind
    }
}
