import ReactorTraceFormat

/// One step of a causal chain, with names resolved.
public enum WhyStep: Sendable, Equatable, CustomStringConvertible {
    /// A store action ran (the usual root); `site` is its call site
    /// (`#fileID:#line`) when the trace recorded it.
    case action(name: String, arguments: String, site: String? = nil)
    /// A dependency, property or computed value changed; with the values it
    /// went between when the trace recorded them.
    case changed(name: String, kind: TraceNodeKind, values: WhyValueChange? = nil)
    /// A computation was invalidated, for `cause`.
    case invalidated(name: String, kind: TraceNodeKind, cause: InvalidationCause)
    /// A computation ran: its first run (created) or a rerun.
    case ran(name: String, kind: TraceNodeKind, firstRun: Bool)
    /// The trace does not hold the cause (it began after it, or lost it).
    case unknown
    /// Steps left out of a very long chain.
    case elided(count: Int)

    /// The step as shown: `TodoStore.todos changed`, `autorun list reran`…
    public var description: String {
        switch self {
        case let .action(name, arguments, site):
            (arguments.isEmpty ? "action \(name)" : "action \(name) \(arguments)") + (site.map { " at " + $0 } ?? "")
        case let .changed(name, kind, values):
            switch kind {
            case .computed: "computed \(name) got a new value" + Self.suffix(values)
            case .subject, .signal, .operator: "\(kind.label) \(name) sent a value" + Self.suffix(values)
            default: "\(name) changed" + Self.suffix(values)
            }
        case let .invalidated(name, kind, cause) where kind == .operator || kind == .binding:
            cause == .stop || cause == .parent ? "\(kind.label) \(name) stopped" : "\(kind.label) \(name) received it"
        case let .invalidated(name, kind, cause):
            switch cause {
            case .dependency: "\(kind.label) \(name) invalidated"
            case .parent: "\(kind.label) \(name) stopped with its parent"
            case .explicit: "\(kind.label) \(name) invalidated explicitly (invalidate()/run())"
            case .stop, .runaway, .error: "\(kind.label) \(name) stopped \(cause.stopReason)"
            }
        case let .ran(name, kind, firstRun):
            switch (kind, firstRun) {
            case (.computed, true): "computed \(name) first computed"
            case (.computed, false): "computed \(name) recomputed"
            case (.operator, _), (.binding, _): "\(kind.label) \(name) ran"
            case (_, true): "\(kind.label) \(name) created (first run)"
            case (_, false): "\(kind.label) \(name) reran"
            }
        case .unknown:
            "(cause not in the trace)"
        case let .elided(count):
            "… \(count) steps …"
        }
    }

    /// The step without its call arguments, call site and values, for grouping runs by chain.
    public var withoutArguments: WhyStep {
        if case let .action(name, _, _) = self { return .action(name: name, arguments: "") }
        if case let .changed(name, kind, _) = self { return .changed(name: name, kind: kind) }
        return self
    }

    /// `: old → new` when the values are known.
    static func suffix(_ values: WhyValueChange?) -> String {
        values.map { ": " + $0.description } ?? ""
    }
}

extension Array where Element == WhyStep {
    /// The chain as one line, root first: `action … → TodoStore.todos changed → …`.
    public var chainDescription: String {
        displayedSteps.map(\.text).joined(separator: " → ")
    }

    /// The steps as shown, with a computed's rerun and its new value merged
    /// into one step (`computed remainingCount recomputed to a new value`),
    /// and a signal stage's receipt, run and send too (`operator … passed it on`).
    public var displayedSteps: [(step: WhyStep, text: String)] {
        var shown: [(step: WhyStep, text: String)] = []
        var index = startIndex
        while index < endIndex {
            let step = self[index]
            if case let .invalidated(name, kind, cause) = step, kind == .operator || kind == .binding,
               cause == .dependency || cause == .explicit, index + 1 < endIndex,
               case .ran(name, kind, _) = self[index + 1] {
                if index + 2 < endIndex, case .changed(name, kind, _) = self[index + 2] {
                    shown.append((self[index + 1], "\(kind.label) \(name) passed it on"))
                    index += 3
                } else {
                    shown.append((self[index + 1], "\(kind.label) \(name) ran"))
                    index += 2
                }
                continue
            }
            if case let .ran(name, .computed, false) = step, index + 1 < endIndex,
               case .changed(name, .computed, let values) = self[index + 1] {
                shown.append((step, "computed \(name) recomputed to a new value" + WhyStep.suffix(values)))
                index += 2
                continue
            }
            shown.append((step, step.description))
            index += 1
        }
        return shown
    }
}
