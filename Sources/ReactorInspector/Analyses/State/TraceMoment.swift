import ReactorTraceFormat

/// A moment of a trace, as `--at` names it: a trace time (`1.5ms`) or the end
/// of the N-th store action (`action:3`, 1-based).
public enum TraceMoment: Sendable, Equatable, CustomStringConvertible {
    /// Trace nanoseconds.
    case time(UInt64)
    /// Right after the N-th action (1-based) ended.
    case afterAction(Int)

    /// Parses `--at`'s text; nil with the reason when it is neither a time nor `action:N` with N ≥ 1.
    public static func parse(_ text: String) -> Result<TraceMoment, TraceMomentError> {
        if text.hasPrefix("action:") {
            let number = text.dropFirst("action:".count)
            guard let count = Int(number), String(count) == number, count >= 0 else {
                return .failure(.malformed(text))
            }
            guard count >= 1 else { return .failure(.actionZero) }
            return .success(.afterAction(count))
        }
        guard let time = DurationText.parse(text) else { return .failure(.malformed(text)) }
        return .success(.time(time))
    }

    /// As `--at` writes it.
    public var description: String {
        switch self {
        case let .time(nanoseconds): DurationText.formatTime(nanoseconds)
        case let .afterAction(count): "action:\(count)"
        }
    }
}

/// Why a moment cannot be used.
public enum TraceMomentError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Neither a time nor `action:N`.
    case malformed(String)
    /// `action:0`: actions count from 1.
    case actionZero
    /// `action:N` beyond the trace's actions.
    case beyondActions(requested: Int, actions: Int)
    /// A time after the trace's last event.
    case pastEnd(requested: UInt64, end: UInt64)

    /// One line for the user.
    public var description: String {
        switch self {
        case let .malformed(text):
            "--at '\(TerminalEscaping.escape(text))' is neither a time (1.5ms, 200us, 2s) nor action:N"
        case .actionZero:
            "--at action:0: actions count from 1 (action:1 is the moment the first action ended)"
        case let .beyondActions(requested, actions):
            "--at action:\(requested): the trace has \(actions) action\(actions == 1 ? "" : "s")"
        case let .pastEnd(requested, end):
            "--at \(DurationText.formatTime(requested)) is past the end of the trace (its last event is at \(DurationText.formatTime(end)))"
        }
    }
}

/// The end of one store action, found by ``ActionEndFinder``.
public struct ActionEnd: Sendable, Equatable {
    /// The store's node id.
    public let store: UInt64
    /// The action's name (`setFilter(_:)`).
    public let name: String
    /// When it began and ended, in trace nanoseconds.
    public let began: UInt64
    /// When it ended (with the flush its end ran): the moment `action:N` names.
    public internal(set) var ended: UInt64
}

/// Finds when the N-th action ended, in one streaming pass that keeps at most
/// N actions. Actions count in the order they began; an action begun inside
/// another on the same thread is part of it and does not count on its own.
/// An action "has ended" once the flush its end started is over: when the
/// thread's next event is a `flushBegan`, the moment is that flush's end, so
/// computeds and autoruns the action invalidated show their new state.
public struct ActionEndFinder {
    /// The N asked for.
    public let ordinal: Int
    /// The earliest-begun finished actions, at most ``ordinal`` of them, by begin time.
    private var earliest: [ActionEnd] = []
    /// Per thread, the open actions (store, name, begin), outermost first.
    private var open: [[(store: UInt64, name: String, began: UInt64)]] = []
    /// Per thread, an action that ended and waits to see whether a flush follows it.
    private var ending: [PendingEnd?] = []
    /// How many outermost actions ended.
    public private(set) var count = 0
    /// Whether the trace holds value events.
    public private(set) var sawValues = false

    private struct PendingEnd {
        var end: ActionEnd
        var flushDepth = 0
    }

    /// Creates a finder for `action:ordinal`.
    public init(ordinal: Int) {
        self.ordinal = max(1, ordinal)
    }

    /// Consumes one event (a batch of one).
    public mutating func consume(_ event: consuming TraceEvent) {
        var strings: [String] = []
        var plain = PlainTraceEvent(timestamp: event.timestamp, thread: event.thread,
                                    record: PlainTraceRecord(event.record, strings: &strings))
        withUnsafePointer(to: &plain) { pointer in
            consume(TraceEventBatch(events: UnsafeBufferPointer(start: pointer, count: 1), strings: strings,
                                    thread: event.thread))
        }
    }

    /// Consumes a batch of events.
    public mutating func consume(_ batch: borrowing TraceEventBatch) {
        let thread = Int(batch.thread)
        if thread >= open.count {
            open.append(contentsOf: repeatElement([], count: thread - open.count + 1))
            ending.append(contentsOf: repeatElement(nil, count: thread + 1 - ending.count))
        }
        let events = batch.events
        for position in events.indices {
            if var pending = ending[thread] {
                switch events[position].record {
                case .flushBegan:
                    pending.flushDepth += 1
                    ending[thread] = pending
                    continue
                case .flushEnded where pending.flushDepth > 0:
                    pending.flushDepth -= 1
                    pending.end.ended = events[position].timestamp
                    if pending.flushDepth == 0 {
                        keep(pending.end)
                        ending[thread] = nil
                    } else {
                        ending[thread] = pending
                    }
                    continue
                default:
                    if pending.flushDepth > 0 { continue }
                    keep(pending.end)
                    ending[thread] = nil
                }
            }
            switch events[position].record {
            case let .actionBegan(store, name, _):
                // Nested actions only need the depth; their names are never shown.
                open[thread].append((store, open[thread].isEmpty ? batch.string(name) : "", events[position].timestamp))
            case let .actionEnded(store):
                guard let depth = open[thread].lastIndex(where: { $0.store == store }) else { continue }
                let outer = open[thread][depth]
                open[thread].removeSubrange(depth...)
                if depth == 0 {
                    count += 1
                    ending[thread] = PendingEnd(end: ActionEnd(store: outer.store, name: outer.name, began: outer.began,
                                                               ended: events[position].timestamp))
                }
            case .value:
                sawValues = true
            default:
                continue
            }
        }
    }

    private mutating func keep(_ end: ActionEnd) {
        if earliest.count == ordinal, let last = earliest.last, last.began <= end.began { return }
        // Threads' chunks interleave out of time order: insert by begin time.
        var low = 0, high = earliest.count
        while low < high {
            let middle = (low + high) / 2
            if earliest[middle].began <= end.began { low = middle + 1 } else { high = middle }
        }
        earliest.insert(end, at: low)
        if earliest.count > ordinal { earliest.removeLast() }
    }

    /// The N-th action's end, or why there is none (call once, after the last batch).
    public mutating func result() -> Result<ActionEnd, TraceMomentError> {
        // The trace ended inside or right after an action: it ended where the trace did.
        for thread in ending.indices {
            if let pending = ending[thread] { keep(pending.end) }
            ending[thread] = nil
        }
        guard earliest.count == ordinal, let end = earliest.last else {
            return .failure(.beyondActions(requested: ordinal, actions: count))
        }
        return .success(end)
    }
}
