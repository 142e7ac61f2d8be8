import ReactorTraceFormat

/// Collects the runs of one explained computation during the model's pass:
/// the first ones with their chains, and all of them grouped by chain shape.
struct WhyCollector {
    struct Recorded {
        var timestamp: UInt64
        var node: UInt64
        var event: WhyEntry.Event
        var link: CauseLink
        var stopCause: InvalidationCause?
    }

    /// A chain's shape: its steps without arguments or times.
    enum StepKey: Hashable {
        case action(Int32)
        case changed(Int32)
        case invalidated(Int32, UInt8)
        case ran(Int32, Bool)
        case unknown
        case elided
    }

    static let maximumPatterns = 500

    let target: String
    var firstRuns = 0
    var reruns = 0
    var stops = 0
    var stopsByCause: [InvalidationCause: Int] = [:]
    var entries: [Recorded] = []
    var omitted = 0
    var patterns: [[StepKey]: (count: Int, example: CauseLink)] = [:]
    var ungrouped = 0
    /// Every run and stop recorded, in order, when asked for (nil: not kept): a builder
    /// reading chunks alone hands them on to be checked and merged (``TraceIndexSession``).
    var every: [Recorded]?

    init(target: String) {
        self.target = target
    }

    mutating func record(_ event: WhyEntry.Event, stopCause: InvalidationCause? = nil, node: UInt64, at time: UInt64,
                         link: CauseLink, limit: Int) {
        switch event {
        case .firstRun: firstRuns += 1
        case .rerun: reruns += 1
        case .stopped:
            stops += 1
            if let stopCause { stopsByCause[stopCause, default: 0] += 1 }
        }
        every?.append(Recorded(timestamp: time, node: node, event: event, link: link, stopCause: stopCause))
        if entries.count < limit {
            entries.append(Recorded(timestamp: time, node: node, event: event, link: link, stopCause: stopCause))
        } else {
            omitted += 1
        }
        let key = Self.shape(of: link)
        if let existing = patterns[key] {
            patterns[key] = (existing.count + 1, existing.example)
        } else if patterns.count < Self.maximumPatterns {
            patterns[key] = (1, link)
        } else {
            ungrouped += 1
        }
    }

    static func shape(of link: CauseLink) -> [StepKey] {
        link.stepsFromRoot.map { step in
            switch step {
            case let .action(call): .action(call.action)
            case let .changed(node, _): .changed(node)
            case let .invalidated(node, cause): .invalidated(node, cause.rawValue)
            case let .ran(node, firstRun): .ran(node, firstRun)
            case .unknown: .unknown
            case .elided: .elided
            }
        }
    }
}
