import ReactorTraceFormat

/// The importer's numbering of outermost actions, and the moment `action:N`
/// names. Outermost actions count from 1 in the order they began as read (an
/// action begun inside another on the same thread is part of it): the N of
/// `state --at action:N`, of `top`'s recent actions and of the report's action
/// timeline alike.
///
/// The N-th action "has ended" once the flush its end started is over: when
/// its thread's next event is a `flushBegan`, the moment is that flush's end,
/// so computeds and autoruns the action invalidated show their new state;
/// otherwise it is the action's end. The importer asks ``watches(thread:)``
/// on each event and hands the watched thread's events to ``watch(_:at:)``
/// until the moment is known.
struct ActionMomentTracker {
    /// The N asked for (0: none).
    let ordinal: Int
    /// Outermost actions begun so far.
    private(set) var begun = 0
    /// Outermost actions ended so far.
    private(set) var ended = 0
    /// The thread whose events decide the moment (-1: none, or decided).
    private(set) var watchedThread = -1
    /// The N-th action once begun; its `ended` is the moment so far.
    private var target: ActionEnd?
    private var targetThread = -1
    /// Flushes open on the watched thread since the action ended.
    private var flushDepth = 0
    /// Whether the moment is known.
    private(set) var isDecided = false

    init(ordinal: Int?) {
        self.ordinal = ordinal.map { max(1, $0) } ?? 0
    }

    /// Goes on from a pass that had seen `begun` outermost actions begin and `ended` end, none of
    /// them the N-th: the state of a pass that had read the same events.
    mutating func resume(begun: Int, ended: Int) {
        precondition(ordinal == 0 || begun < ordinal, "a checkpoint before the N-th action began")
        self.begun = begun
        self.ended = ended
    }

    /// True while `thread`'s next event may decide the moment.
    @inline(__always)
    func watches(thread: Int) -> Bool { thread == watchedThread }

    /// An outermost action of the store `store` named `name` began on `thread`
    /// at `time`; returns its number.
    mutating func began(store: UInt64, name: @autoclosure () -> String, thread: Int, at time: UInt64) -> Int {
        begun += 1
        if begun == ordinal {
            target = ActionEnd(store: store, name: name(), began: time, ended: time)
            targetThread = thread
        }
        return begun
    }

    /// An outermost action ended on `thread` at `time`.
    mutating func ended(thread: Int, at time: UInt64) {
        ended += 1
        // While the N-th is open, any other action on its thread is inside it.
        guard thread == targetThread, !isDecided, watchedThread < 0, target != nil else { return }
        target?.ended = time
        watchedThread = thread
    }

    /// The watched thread's next event; returns the moment once it is decided
    /// (the event itself belongs to the model when it is not later than it).
    mutating func watch(_ record: PlainTraceRecord, at time: UInt64) -> UInt64? {
        switch record {
        case .flushBegan:
            flushDepth += 1
        case .flushEnded where flushDepth > 0:
            flushDepth -= 1
            target?.ended = time
            if flushDepth == 0 { return decide() }
        default:
            // Inside the flush: the moment is at least here (where the trace ends, if it ends inside it).
            if flushDepth > 0 { target?.ended = time } else { return decide() }
        }
        return nil
    }

    private mutating func decide() -> UInt64? {
        isDecided = true
        watchedThread = -1
        return target?.ended
    }

    /// The moment once decided by an event after the action's end (not by the trace ending), else nil.
    var decidedMoment: UInt64? { isDecided ? target?.ended : nil }

    /// The N-th action's end, or why there is none; nil when no N was asked
    /// for. A trace that ends inside (or right after) the action ends the moment.
    var moment: Result<ActionEnd, TraceMomentError>? {
        guard ordinal > 0 else { return nil }
        if let target, isDecided || watchedThread >= 0 { return .success(target) }
        return .failure(.beyondActions(requested: ordinal, actions: ended))
    }
}
