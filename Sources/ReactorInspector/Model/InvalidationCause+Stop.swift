import ReactorTraceFormat

extension InvalidationCause {
    /// True for the causes that stop the computation for good (it never reruns).
    public var stops: Bool {
        switch self {
        case .parent, .stop, .runaway, .error: true
        case .dependency, .explicit: false
        }
    }

    /// What stopped it, in the words every view uses (`by stop()`, `as a runaway`…);
    /// empty for the causes that do not stop.
    public var stopReason: String {
        switch self {
        case .parent: "with its parent's rerun"
        case .stop: "by stop()"
        case .runaway: "as a runaway"
        case .error: "by an error"
        case .dependency, .explicit: ""
        }
    }

    /// The cause's word in JSON and tables (`dependency`, `parent`, `explicit`, `stop`, `runaway`, `error`).
    public var label: String {
        switch self {
        case .dependency: "dependency"
        case .parent: "parent"
        case .explicit: "explicit"
        case .stop: "stop"
        case .runaway: "runaway"
        case .error: "error"
        }
    }
}
